// boot.js: what the page is served with (web/handler.go): the languages and
// the rulebook's options, presets, limits and default timings.

export const boot = JSON.parse(document.getElementById('boot').textContent);
