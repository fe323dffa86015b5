/**
 * Requests a flow sends once: a pre-request script's `pm.sendRequest` under a
 * condition known when converting (`if (!token) log in`, no token yet; see
 * script/request_effect.ts). Postman runs the script before every request,
 * but once the login has set the token it finds it cached and sends no other;
 * so the flow sends it before its first request only, and what it set keeps
 * its value where later runs of the script, under a condition no longer known,
 * would drop it. One that sets nothing changes no condition: it is sent every time.
 *
 * @module
 */
import type { SideRequest } from "./script/side_request.ts";

/**
 * What one flow sent once and the variables that sending set.
 *
 * @example
 * ```ts
 * import { SentOnce } from "./sent_once.ts";
 * const once = new SentOnce();
 * const login = { method: "POST", url: "/login", headers: [], callback: "", once: "pm.sendRequest(…)" };
 * if (!once.first(login) || once.first(login)) throw new Error();
 * once.record(login, new Map(), new Map());
 * if (!once.first(login)) throw new Error("a request that set nothing is sent again");
 * once.record(login, new Map(), new Map([["token", "${steps.a.capture.token}"]]));
 * if (!once.keeps("token") || once.keeps("other")) throw new Error();
 * let sent = 0;
 * once.send(login, new Map(), () => sent++);
 * if (sent !== 0) throw new Error();
 * ```
 */
export class SentOnce {
  readonly #sent = new Set<string>();
  readonly #cached = new Set<string>();

  /** Whether `side` is sent here: one sent once is sent by the first step that asks for it. */
  first(side: SideRequest): boolean {
    if (side.once === undefined) return true;
    if (this.#sent.has(side.once)) return false;
    this.#sent.add(side.once);
    return true;
  }

  /** Notes the variables whose binding sending `side` changed, when it is sent once. */
  record(
    side: SideRequest,
    before: ReadonlyMap<string, string>,
    after: ReadonlyMap<string, string>,
  ): void {
    if (side.once === undefined) return;
    const changed = [...after].filter(([name, v]) => before.get(name) !== v);
    for (const [name] of changed) this.#cached.add(name);
    // One that sets nothing leaves its condition as it was: Postman sends it every time.
    if (changed.length === 0) this.#sent.delete(side.once);
  }

  /** Sends `side` by `send` unless it was sent once already; notes what that changed in `bindings`. */
  send(side: SideRequest, bindings: ReadonlyMap<string, string>, send: () => void): void {
    if (!this.first(side)) return;
    const before = new Map(bindings);
    send();
    this.record(side, before, bindings);
  }

  /** Whether `name` keeps its value when a later run of the script would drop it. */
  keeps(name: string): boolean {
    return this.#cached.has(name);
  }
}
