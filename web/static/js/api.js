// api.js: the lobby's HTTP API (server/api.go). Errors carry the server's
// code and its sentence in the page's language.

import { current, t } from './i18n.js';

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export async function call(method, path, body) {
  const url = `${path}${path.includes('?') ? '&' : '?'}lang=${current()}`;
  let r;
  try {
    r = await fetch(url, {
      method,
      credentials: 'same-origin',
      // Every POST says JSON, a body or not: the server refuses a
      // cookie-carrying POST of any other type (a foreign page's).
      headers: method === 'POST' || body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError('network', t('web.error.network'), 0);
  }
  const data = r.status === 204 ? null : await r.json().catch(() => null);
  if (!r.ok) {
    throw new ApiError(data?.error?.code || 'internal', data?.error?.message || t('error.generic'), r.status);
  }
  return data;
}

export const api = {
  tables: () => call('GET', '/api/tables'),
  table: (id) => call('GET', `/api/tables/${encodeURIComponent(id)}`),
  create: (req) => call('POST', '/api/tables', req),
  join: (id, name, seat = 0) => call('POST', `/api/tables/${encodeURIComponent(id)}/join`, { name, seat }),
  leave: (id) => call('POST', `/api/tables/${encodeURIComponent(id)}/leave`),
  // The whole record of a game that is over (every night action and check).
  log: (id) => call('GET', `/api/tables/${encodeURIComponent(id)}/log`),
  // The game's review: an online game's record (its players', or anyone's
  // at a public table), or an in-person game's protocol (the assistant's).
  record: (id, lang) => call('GET', `/api/tables/${encodeURIComponent(id)}/record${lang ? `?lang=${encodeURIComponent(lang)}` : ''}`),
  protocol: (id) => call('GET', `/host/api/games/${encodeURIComponent(id)}/protocol.json`),
};
