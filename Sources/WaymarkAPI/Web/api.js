// The daemon's API as the page uses it: only documented endpoints (docs/openapi.yaml). Over the
// Unix socket no token is asked; over TCP every request carries the bearer token the user signed
// in with. The token lives only in this module's closure: not in sessionStorage, localStorage or
// a cookie, where any script running in the page could read it back (docs/web.md, "The token");
// a reload asks for it again.

let token = null;

export class Unauthorized extends Error {}

/** An error answer: the API's own `error.message`, or the status. */
export class APIError extends Error {
  constructor(status, body) {
    super(body?.error?.message ?? `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export function setToken(value) {
  token = value || null;
}

export function hasToken() {
  return token !== null;
}

function headers(extra = {}) {
  return token ? { ...extra, Authorization: `Bearer ${token}` } : extra;
}

async function checked(response) {
  if (response.status === 401) throw new Unauthorized("the token was refused");
  if (!response.ok) {
    let body = null;
    try { body = await response.json(); } catch { /* not JSON */ }
    throw new APIError(response.status, body);
  }
  return response;
}

/** GET a JSON resource. */
export async function get(path) {
  return (await checked(await fetch(path, { headers: headers() }))).json();
}

/** GET a file (exports), as a Blob. */
export async function download(path) {
  return (await checked(await fetch(path, { headers: headers() }))).blob();
}

/** POST, PUT or DELETE with an optional body; the answer's JSON, or null when it has none. */
export async function send(method, path, body, contentType = "application/json") {
  const init = { method, headers: headers(body === undefined ? {} : { "Content-Type": contentType }) };
  if (body !== undefined) init.body = body;
  const response = await checked(await fetch(path, init));
  return response.status === 204 ? null : response.json();
}

/**
 * Follows `GET /v1/stream` (Server-Sent Events) with fetch, so the token can go in a header
 * (EventSource cannot send one): calls `onEntry(kind, entry)` for each `fix`, `gap` and `event`,
 * until `signal` aborts or the daemon ends the stream.
 */
export async function stream(path, onEntry, signal) {
  const response = await checked(await fetch(path, { headers: headers({ Accept: "text/event-stream" }), signal }));
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let kind = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) kind = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      if (data.length) onEntry(kind, JSON.parse(data.join("\n")));
    }
  }
}
