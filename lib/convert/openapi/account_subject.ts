/**
 * The signed-in account's id where the one answer that could show it does
 * not: the `sub` of the token the login answered, read when the flow runs.
 * A Flask e-learning API describes no answer and calls its scheme an apiKey
 * `Authorization` header; `GET /students/{user_id}/courses` needs the
 * account's id, which the converter searches `GET /auth/user`'s answer for
 * (the account's own read, `undescribed_listing.ts`), and that answer is
 * `{name, email}`; only the access token's `sub` holds it (Flask-JWT-
 * Extended's identity), so the read was skipped. The search now falls back
 * on the token's claim, which the login's step captures optionally: the
 * token the server issued decides, not what the document calls it. When the
 * answer holds the id it wins; an opaque token, or a JWT without `sub` or
 * the id's own claims (`subjectClaims`), leaves the capture unset and the
 * read skipped, saying why, as before.
 *
 * Only for an id searched in the account's own read: a signed-in `GET` of
 * no parameter whose path names the id's noun in the singular (`/auth/user`
 * for `{user_id}`, `/users/me`) or is `me`; a listing (`/users`) holds
 * others' ids as well, and a token login's only (a session has no token).
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { singular } from "../names.ts";
import { type YMap, ymap, type YNode } from "../yaml_out.ts";
import { searchPath } from "./capture_source.ts";
import type { ParamLink } from "./document_links.ts";
import { idNoun, subjectClaims } from "./jwt_subject.ts";
import { type Login, tokenGiver } from "./login.ts";
import type { OpenApiOperation } from "./operations.ts";
import type { Inferred } from "./prerequisites.ts";
import { plainName } from "./required_props.ts";
import { tokenSource } from "./token_source.ts";
import { usesLogin } from "./uses_login.ts";

/** The login step's capture of the token's subject. */
const SUBJECT_CAPTURE = "token_subject";

/** Whether `read` is the signed-in account's own read, answering the account `param` names. */
function accountRead(doc: Node, login: Login, read: OpenApiOperation, param: string): boolean {
  if (read.method !== "GET" || read.template.includes("{")) return false;
  if (!usesLogin(read.node, doc, login)) return false;
  const words = read.template.split("/").filter((w) => w !== "").map(plainName);
  const last = words.at(-1);
  const noun = idNoun(param);
  if (last === undefined || noun === undefined) return false;
  // A plural last word is a listing of many accounts, of which the first is anyone's.
  return last === "me" ||
    (singular(last) === last && words.map(singular).includes(plainName(noun)));
}

/**
 * The links whose search of the account's own read falls back on the token's
 * claims (`subject: true`), for a token login; the rest as they were.
 *
 * @example
 * ```ts
 * import { withAccountSubject } from "./account_subject.ts";
 * import { operationsOf } from "./operations.ts";
 * const bearer = [{ b: [] }];
 * const doc = {
 *   components: { securitySchemes: { b: { type: "http", scheme: "bearer" } } },
 *   paths: {
 *     "/login": { post: { responses: { 200: { description: "" } } } },
 *     "/auth/user": { get: { security: bearer, responses: { 200: { description: "" } } } },
 *     "/students/{user_id}/courses": { get: { security: bearer, responses: { 200: { description: "" } } } },
 *   },
 * };
 * const [login, me, courses] = operationsOf(doc);
 * const link = { param: "user_id", producer: me, path: [], from: "listing" as const, search: ["user_id", "id"] };
 * const token = { op: login, path: ["token"], schemes: new Map([["b", {}]]) };
 * const inferred = { params: new Map([[courses, [link]]]), login: token as never };
 * if (withAccountSubject(doc, inferred).params.get(courses)?.[0].subject !== true) throw new Error();
 * // A listing of accounts (`/users`) is anyone's, never the signed-in one's.
 * const listing = { ...me, template: "/users" };
 * const listed = { params: new Map([[courses, [{ ...link, producer: listing }]]]), login: token as never };
 * if (withAccountSubject(doc, listed).params.get(courses)?.[0].subject) throw new Error();
 * ```
 */
export function withAccountSubject(doc: Node, inferred: Inferred): Inferred {
  const { login } = inferred;
  if (!login || login.session) return inferred;
  const params = new Map<OpenApiOperation, ParamLink[]>();
  for (const [op, links] of inferred.params) {
    params.set(
      op,
      links.map((link) =>
        link.search && accountRead(doc, login, link.producer, link.param)
          ? { ...link, subject: true as const }
          : link
      ),
    );
  }
  return { ...inferred, params };
}

/** What {@linkcode orSubject} reads of a flow's builder (flow_session.ts's `SessionBuilder`). */
export interface SubjectBuilder {
  readonly shared: { inferred: Inferred };
  readonly stepOf: ReadonlyMap<OpenApiOperation, string>;
  capture(step: string, key: string, source: YNode): string;
}

/**
 * A searched capture (`source`, a map) that, when its answer holds none of
 * the names searched, is the login token's claim instead (`sub`, else the
 * id's own): the login's step captures it, optionally, beside the token.
 *
 * @example
 * ```ts
 * import { orSubject } from "./account_subject.ts";
 * import { ymap } from "../yaml_out.ts";
 * const login = { op: { method: "POST", template: "/login" }, path: ["token"], schemes: new Map() };
 * const b = {
 *   shared: { inferred: { params: new Map(), login } },
 *   stepOf: new Map([[login.op, "sign_in"]]),
 *   capture: (step: string, key: string) => `\${steps.${step}.capture.${key}}`,
 * } as never;
 * const link = { param: "user_id", path: [], from: "listing", search: ["id"], subject: true } as never;
 * const got = JSON.stringify(orSubject(b, link, ymap([["path", "$.json..['id']"]])));
 * if (!got.includes("${steps.sign_in.capture.token_subject}")) throw new Error(got);
 * ```
 */
export function orSubject(b: SubjectBuilder, link: ParamLink, source: YNode): YNode {
  const { login } = b.shared.inferred;
  const map = source as YMap;
  if (!link.subject || !link.search || !login || map?.kind !== "map") return source;
  const step = b.stepOf.get(login.op) ?? b.stepOf.get(tokenGiver(login));
  if (step === undefined) return source;
  // The token's own source (a path, or a map: a regex), with the claims read of it.
  const token = tokenSource(login);
  const from = typeof token === "string"
    ? [["path", token] as [string, YNode]]
    : (token as YMap).entries;
  const claims = ymap([...from, ["claim", subjectClaims(link.param)], ["optional", true]]);
  const otherwise = b.capture(step, SUBJECT_CAPTURE, claims);
  // A path of `..` selects a list, found even when empty: the answer holds one when it is not.
  const found = ymap([["path", searchPath(link.search)], ["notEquals", []]]);
  return ymap([...map.entries, ["when", found], ["otherwise", otherwise]]);
}
