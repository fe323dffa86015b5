/**
 * What a script reads of its own request, known now from the collection:
 * `pm.info.requestName`, `pm.request.body.raw` and `pm.request.headers.get("X")`.
 * Postman gives the request as sent, each `{{x}}` resolved, so a header's text
 * is its literal parts and its variables as the flow reads them; a test that
 * compares the answer with a header its request carried compares with that.
 *
 * @module
 */
import type { PmPair } from "../model.ts";
import type { Sym } from "./sym.ts";

/** The parts of the request a script may read, as the collection writes them. */
export interface OwnRequest {
  /** The request's name, which `pm.info.requestName` reads. */
  requestName?: string;
  /** The request's raw body as written, which `pm.request.body.raw` reads when it holds no `{{x}}`. */
  requestBody?: string;
  /** The request's own headers as written, which `pm.request.headers.get(name)` reads. */
  requestHeaders?: PmPair[];
}

/**
 * `pm.info.requestName` and `pm.request.body.raw`: known now from the request; `null` for others.
 *
 * @example
 * ```ts
 * import { ownRequest } from "./own_request.ts";
 * const s = ownRequest("pm.info.requestName", { requestName: "Login" });
 * if (s?.k !== "lit" || s.value !== "Login" || ownRequest("pm.x", {}) !== null) throw new Error();
 * ```
 */
export function ownRequest(name: string, own: OwnRequest): Sym | undefined | null {
  if (name === "pm.info.requestName" && own.requestName) {
    return { k: "lit", value: own.requestName };
  }
  if (name !== "pm.request.body.raw") return null;
  // Postman gives the body as sent, each `{{x}}` resolved: only one with none is known now.
  const raw = own.requestBody;
  return raw !== undefined && !raw.includes("{{") ? { k: "lit", value: raw } : undefined;
}

/**
 * `pm.request.headers.get(name)`: the request's own header of that name (in any case, as
 * Postman looks it up), enabled, as text of literals and variables; `undefined` for a header the
 * request does not write (one its auth or Postman adds is not known now), or a name not known.
 *
 * @example
 * ```ts
 * import { ownHeader } from "./own_request.ts";
 * const variable = (n: string) => ({ k: "var" as const, name: n, expr: `\${vars.${n}}` });
 * const headers = [{ key: "X-Trace", value: "run-{{trace}}" }, { key: "X-A", value: "a" }];
 * const s = ownHeader({ k: "lit", value: "x-trace" }, { requestHeaders: headers }, variable);
 * if (s?.k !== "cat" || s.parts.length !== 2) throw new Error(JSON.stringify(s));
 * const a = ownHeader({ k: "lit", value: "X-A" }, { requestHeaders: headers }, variable);
 * if (a?.k !== "lit" || a.value !== "a") throw new Error(JSON.stringify(a));
 * ```
 */
export function ownHeader(
  name: Sym | undefined,
  own: OwnRequest,
  variable: (name: string) => Sym | undefined,
): Sym | undefined {
  if (name?.k !== "lit" || typeof name.value !== "string") return undefined;
  const wanted = name.value.toLowerCase();
  // Postman's header list gives the last of a repeated name; a disabled one is not sent.
  const header = (own.requestHeaders ?? []).filter((h) =>
    !h.disabled && h.key.toLowerCase() === wanted
  ).at(-1);
  return header === undefined ? undefined : templateText(header.value, variable);
}

/** Postman text as a value: literal parts and `{{x}}` variables; `undefined` when one is unknown. */
function templateText(
  text: string,
  variable: (name: string) => Sym | undefined,
): Sym | undefined {
  const parts: Sym[] = [];
  for (const [i, piece] of text.split(/\{\{([^{}]+)\}\}/).entries()) {
    const part = i % 2 === 0 ? { k: "lit" as const, value: piece } : variable(piece.trim());
    // A variable read before anything sets it, or set in a way not translated, is not known now.
    if (part === undefined || (part.k !== "lit" && part.k !== "var")) return undefined;
    if (part.k === "lit" && typeof part.value !== "string") return undefined;
    if (part.k !== "lit" || part.value !== "") parts.push(part);
  }
  if (parts.length === 0) return { k: "lit", value: "" };
  return parts.length === 1 ? parts[0] : { k: "cat", parts };
}
