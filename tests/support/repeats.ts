/**
 * Recordings that repeat one request many times: a chat that makes a room,
 * then posts `n` messages to it, each post followed by the page's poll of the
 * room (so no two neighbours are the same request and none is folded into a
 * loop). Every post and every poll has the same method and URL as the others
 * of its kind, and every poll reads what the journey made: a stage that, for
 * each step, reads every earlier answer of the same request (or copies the
 * list of them), or every answer since the room was made, makes the
 * conversion quadratic.
 */
import { type EntrySpec, harOf } from "./har_records.ts";

/**
 * A HAR of a sign-in, `POST /api/rooms` making the room `general`, then `n`
 * pairs of `POST /api/rooms/general/messages` (a text of its own, answered
 * with a new id) and `GET /api/rooms/general` (a count that grows).
 *
 * @example
 * ```ts
 * import { repeatedRequests } from "./repeats.ts";
 * const har = JSON.parse(repeatedRequests(3));
 * if (har.log.entries.length !== 8) throw new Error(String(har.log.entries.length));
 * ```
 */
export function repeatedRequests(n: number): string {
  return harOf(repeatSpecs(n));
}

/** The entries of {@linkcode repeatedRequests}, for `recordsOf` (har_records.ts). */
export function repeatSpecs(n: number): EntrySpec[] {
  const token = "tok_5c2e9a7b41d3f086";
  const auth: [string, string][] = [["Authorization", `Bearer ${token}`]];
  const specs: EntrySpec[] = [{
    method: "POST",
    url: "http://chat.test/api/login",
    body: JSON.stringify({ username: "ann", password: "s3cret-pw" }),
    json: { token },
  }, {
    method: "POST",
    url: "http://chat.test/api/rooms",
    headers: auth,
    body: JSON.stringify({ name: "general" }),
    status: 201,
    json: { id: "room_5f1c", name: "general", topic: "Anything" },
  }];
  for (let i = 0; i < n; i++) {
    const id = `msg_${(i * 2654435761 % 4294967296).toString(16).padStart(8, "0")}`;
    specs.push({
      method: "POST",
      url: "http://chat.test/api/rooms/general/messages",
      headers: auth,
      body: JSON.stringify({ room: "general", text: `message number ${i}` }),
      status: 201,
      json: {
        id,
        room: "general",
        text: `message number ${i}`,
        author: "ann",
        edited: false,
        // Present on some answers only: the check must see every earlier answer of the post.
        ...(i % 3 === 1 ? { thread: { replies: 0 } } : {}),
      },
    });
    specs.push({
      method: "GET",
      url: "http://chat.test/api/rooms/general",
      headers: auth,
      json: { id: "room_5f1c", name: "general", topic: "Anything", unread: i + 1, open: true },
    });
  }
  return specs;
}

/**
 * A HAR of `n` posts of one form (`POST /chat/send`, URL-encoded), each
 * sending a text of its own and the same CSRF token, which no answer
 * handed out: each step's field is a secret to ask for, and one variable.
 *
 * @example
 * ```ts
 * import { repeatedForm } from "./repeats.ts";
 * const har = JSON.parse(repeatedForm(2));
 * if (!har.log.entries[1].request.postData.text.includes("csrf=")) throw new Error();
 * ```
 */
export function repeatedForm(n: number): string {
  return harOf(formSpecs(n));
}

/** The entries of {@linkcode repeatedForm}, for `recordsOf` (har_records.ts). */
export function formSpecs(n: number): EntrySpec[] {
  return Array.from({ length: n }, (_, i) => ({
    method: "POST",
    url: "http://chat.test/chat/send",
    mime: "application/x-www-form-urlencoded",
    body: `room=general&text=hello+${i}&csrf=c5f0a9e2b7d14e63`,
    json: { ok: true, id: `m${(i * 2654435761 % 4294967296).toString(36)}` },
  }));
}
