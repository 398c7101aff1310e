// A player's card page (dealing by links): the token in the link's
// fragment opens only this seat's card, behind "tap to reveal / tap to
// hide". The sentences come drawn in the page's language from the server.

const body = document.body;
const { game, seat, lang } = body.dataset;
const token = location.hash.slice(1);
const face = document.getElementById('face');
const who = document.getElementById('who');
const err = document.getElementById('error');
let card = null;
let shown = false;

for (const a of document.querySelectorAll('.langs a')) {
  a.addEventListener('click', (e) => {
    e.preventDefault();
    location.replace(`?lang=${a.dataset.lang}${location.hash}`);
  });
}

function draw() {
  face.classList.toggle('hidden-card', !shown);
  face.classList.toggle('shown', shown);
  if (shown && card) {
    face.className = `card-face shown role-${card.role}`;
    face.replaceChildren(Object.assign(document.createElement('span'), { className: 'role-name', textContent: card.role_name }),
      Object.assign(document.createElement('span'), { className: 'tap', textContent: face.dataset.hide }));
  } else {
    face.className = 'card-face hidden-card';
    face.textContent = face.dataset.reveal;
  }
}

async function load() {
  try {
    const r = await fetch(`/host/api/games/${game}/cards/${seat}?lang=${lang}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!r.ok) { err.textContent = err.dataset.bad; err.hidden = false; face.hidden = true; return; }
    card = await r.json();
    who.textContent = card.who;
  } catch (_) {
    err.textContent = err.dataset.net;
    err.hidden = false;
  }
}

face.addEventListener('click', () => {
  if (!card) return;
  shown = !shown;
  draw();
});

load();
