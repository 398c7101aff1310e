// cards.js: each card as a card: its name, its side, what it does at
// night and how it wins, in the page's language. The deal, the how-to
// dialog and the table draw it; the card itself is the one the host's
// assistant draws too (rolecard.js, shared).

export { ROLES, roleCard } from './rolecard.js';
