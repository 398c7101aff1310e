// Package voicetest holds the voice table's real-Chromium tests: the page's
// voice (web/static/js/voice.js) against a real server on loopback with
// its forwarding unit (package voice), each seat's browser a Chromium of
// its own with a fake microphone playing a distinct tone. The tests check
// what each listener hears, by getStats and by the decoded audio.
//
// It is for tests only (its own package, so that package web's tests do not
// grow): nothing imports it, and it holds no code but this comment.
package voicetest
