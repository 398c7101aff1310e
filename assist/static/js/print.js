// The printable protocol's one button.
document.getElementById('print').addEventListener('click', () => window.print());
