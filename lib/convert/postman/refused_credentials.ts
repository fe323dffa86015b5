/**
 * Credentials a collection writes out to be refused: the negative cases of a
 * suite send a wrong token on purpose (`Cookie: token=invalid_random_string`,
 * `Authorization: Bearer expired`) and test for 401 or 403. Newman sends that
 * text as written, and the test passes because the server refuses it. Asked
 * for as a secret by the header's name, every such value became one
 * environment variable (a Restful Booker suite's two different invalid
 * cookies were one `COOKIE`, measured by hand, see docs/real-servers.md): a
 * user who gives a valid one fails the negative cases, and two values Newman
 * sends differently are one. The evidence is the request's own tests: a
 * literal in a credential header of a request whose tests expect a refusal,
 * when no request expecting anything else sends the same text, is sent as
 * written (`asWritten`, as header_evidence.ts marks an importer's placeholder).
 *
 * @module
 */
import { isSecretHeader } from "../../secrets/names.ts";
import type { PmPair, PmRequest, PmUnit } from "./model.ts";

/** A test expecting 401 or 403: `to.have.status(403)`, `code).to.eql(401)`, `to.be.forbidden`. */
const REFUSAL = [
  /\b(?:status|code)\b[^;\n]{0,40}?\b40[13]\b/i,
  /\.to\.be\.(?:forbidden|unauthori[sz]ed)\b/,
  /\bstatus\(\s*["'`](?:Forbidden|Unauthori[sz]ed)["'`]/i,
];

/** A test expecting a success: `to.have.status(200)`, `code).to.eql(201)`, `to.be.ok`. */
const SUCCESS = [/\b(?:status|code)\b[^;\n]{0,40}?\b2\d\d\b/i, /\.to\.be\.(?:ok|success)\b/];

/** Whether the request's own test scripts expect a refusal and no success. */
function expectsRefusal(r: PmRequest): boolean {
  const own = r.scripts.filter((s) => s.listen === "test" && s.owner === r.name);
  const text = own.map((s) => s.source).join("\n");
  return REFUSAL.some((re) => re.test(text)) && !SUCCESS.some((re) => re.test(text));
}

/** A credential written out in a header (no `{{x}}`, not empty), trimmed; else undefined. */
function literal(h: PmPair): string | undefined {
  const v = (h.value ?? "").trim();
  return !h.disabled && isSecretHeader(h.key) && v !== "" && !v.includes("{{") ? v : undefined;
}

/**
 * The units with each credential a request writes to be refused marked
 * `asWritten`, unless a request that expects no refusal sends the same text.
 *
 * @example
 * ```ts
 * import { markRefusedCredentials } from "./refused_credentials.ts";
 * const r = { folders: [], method: "GET", url: "{{base}}/me" };
 * const test = (owner: string, source: string) => [{ listen: "test" as const, owner, source }];
 * const bad = { ...r, name: "bad", headers: [{ key: "Cookie", value: "token=nope" }],
 *   scripts: test("bad", "pm.response.to.have.status(403);") };
 * const good = { ...r, name: "good", headers: [{ key: "Cookie", value: "token=s3cret" }],
 *   scripts: test("good", "pm.response.to.have.status(200);") };
 * const [unit] = markRefusedCredentials([{ requests: [bad, good] }]);
 * const sent = unit.requests.map((q) => q.headers[0].asWritten ?? false);
 * if (sent.join() !== "true,false") throw new Error(sent.join());
 * ```
 */
export function markRefusedCredentials(units: PmUnit[]): PmUnit[] {
  const all = units.flatMap((u) => u.requests);
  const kept = new Set(
    all.filter((r) => !expectsRefusal(r)).flatMap((r) => r.headers.map(literal)),
  );
  const refused = (h: PmPair) => {
    const v = literal(h);
    return v !== undefined && !kept.has(v);
  };
  const mark = (r: PmRequest): PmRequest =>
    expectsRefusal(r) && r.headers.some(refused)
      ? { ...r, headers: r.headers.map((h) => refused(h) ? { ...h, asWritten: true } : h) }
      : r;
  return units.map((u) => ({ ...u, requests: u.requests.map(mark) }));
}
