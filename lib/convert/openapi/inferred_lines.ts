/**
 * The summary's "Inferred" lines: where each parameter's value comes from
 * (`{slug} of GET /articles/{slug} ← POST /articles $.json.article.slug`),
 * the second producers, the session and the login's token.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { sessionLines } from "./session_login.ts";
import { answerJwtLines } from "./session_token.ts";
import { ownAccountHint } from "./login_account.ts";
import type { OpenApiOperation } from "./operations.ts";
import type { Login } from "./login.ts";
import type { Inferred } from "./prerequisites.ts";
import { capturePath, type ParamLink } from "./producers.ts";
import type { BodyLink } from "./body_links.ts";
import { matchPath, searchPath } from "./capture_source.ts";
import { tokenWhere } from "./token_source.ts";
import { sentToken } from "./token_refresh.ts";
import { TOKEN_CAPTURE } from "./auth_login.ts";
import { subjectClaims } from "./jwt_subject.ts";
import { examplesAToken } from "./exampled_token.ts";
import { namedTokenWhere } from "./bare_token.ts";

/** The claims a token may name the account by, in the summary's words: `sub, else id`. */
function claimWords(param: string): string {
  const [first, ...rest] = subjectClaims(param);
  const last = rest.pop();
  if (last === undefined) return first;
  return `${first}, else ${rest.length > 0 ? `${rest.join(", ")} or ` : ""}${last}`;
}

/**
 * Where a link searched for by name reads its value: an answer undescribed, or without it; and
 * the token's claim it falls back on (account_subject.ts).
 */
function searchedWhere(link: ParamLink): string {
  const why = link.unlisted ? "its description shows none" : "undescribed";
  const or = link.subject
    ? `, else the login token's claim ${claimWords(link.param)} when it is a JWT`
    : "";
  return `${searchPath(link.search!)} (the first anywhere in its answer, ${why})${or}`;
}

/** Where in its producer's answer a link reads its value, for the summary. */
function linkWhere(link: ParamLink, name: (op: OpenApiOperation) => string): string {
  if (link.from === "location") {
    const at = link.fromEnd ? `segment ${link.fromEnd + 1} from the end` : "last segment";
    return `its Location header's ${at}`;
  }
  if (link.from === "href") return `${capturePath(link.path)} (the link its example shows)`;
  if (link.fresh) return "(a new name of the run's own, for what the call makes)";
  if (link.search) return searchedWhere(link);
  if (link.from === "client") return "(the run's own name, which the client names there)";
  const how = link.from === "links"
    ? " (the document's links)"
    : link.from === "claim"
    ? ` (its JWT's claim ${claimWords(link.param)}: no answer gives the account's id)`
    : link.match
    ? ` (the run's own, after ${name(link.after!)})`
    : link.from === "listing"
    ? ` (the ${link.path.includes("-1") ? "last" : "first"} of its listing${
      link.after ? `, after ${name(link.after)}` : ""
    })`
    : "";
  const sent = link.match && `<the ${link.match} ${name(link.after!)} sent>`;
  return `${sent ? matchPath(link.path, link.match!, sent) : capturePath(link.path)}${how}`;
}

/** One link's line: `{slug} of GET /articles/{slug} ← POST /articles $.json.article.slug`. */
function linkLine(
  op: OpenApiOperation,
  link: ParamLink | BodyLink,
  name: (op: OpenApiOperation) => string,
): string {
  // A body property's link names its place in the body (`order.petId`, `petIds[]`).
  const param = "body" in link
    ? link.param
    : op.template.includes(`{${link.param}}`)
    ? `{${link.param}}`
    : `query ${link.param}`;
  // A kept UUID (kept_uuids.ts) replaces the value the body sends, and adds none.
  const when = "replaceOnly" in link && link.replaceOnly ? " (when the body sends it)" : "";
  return `${param} of ${name(op)} ← ${name(link.producer)} ${linkWhere(link, name)}${when}`;
}

/**
 * What was inferred, for the summary: each parameter's producer, the second producers, the login.
 *
 * @example
 * ```ts
 * import { inferredLines } from "./inferred_lines.ts";
 * if (inferredLines({}, { params: new Map() }, [], new Set()).inferred !== undefined) throw new Error();
 * ```
 */
export function inferredLines(
  doc: Node,
  inferred: Inferred,
  ops: OpenApiOperation[],
  seconds: Set<string>,
): { inferred?: string[] } {
  const lines: string[] = [];
  const name = (op: OpenApiOperation) => `${op.method} ${op.template}`;
  for (const op of ops) {
    for (const link of [...inferred.params.get(op) ?? [], ...inferred.body?.get(op) ?? []]) {
      lines.push(linkLine(op, link, name));
    }
  }
  const { login } = inferred;
  lines.push(...seconds, ...inferred.serverCookies ?? []);
  lines.push(...sessionLines(login, doc), ...answerJwtLines(login, doc));
  if (login) {
    for (const [scheme, served] of login.schemes) {
      const sent = served.bearer ? "Bearer <token>" : `${served.prefix}<token>`;
      lines.push(
        `"${scheme}" (${served.where}) ← ${name(login.op)} ${
          tokenWhere(login) ??
            `${namedTokenWhere(login)} (${
              examplesAToken(doc, login.op) ? "its documented example" : "its description"
            })`
        }, sent "${sent}"${
          login.register
            ? `, signed in as the account ${name(login.register)} registers${
              login.registerAnswers ? " (whose own answer a flow that does not log in reads)" : ""
            }; ${ownAccountHint(doc, login)}`
            : selfMade(login)
        }`,
      );
    }
    lines.push(...renewalLines(doc, ops, login));
  }
  return lines.length > 0 ? { inferred: lines } : {};
}

/** What the summary says of a login that makes its own account (self_signup.ts). */
function selfMade(login: Login): string {
  return login.signsUp
    ? ", signed in as the account it makes (the run's own, made unique per run)"
    : "";
}

/**
 * A line for each operation signed in with the login's scheme that renews the token: it is sent
 * the login's refresh token, not the token its scheme's line names.
 */
function renewalLines(doc: Node, ops: OpenApiOperation[], login: Login): string[] {
  const lines: string[] = [];
  for (const op of ops) {
    const security = op.node.security ?? (doc as { security?: unknown }).security;
    const named = Array.isArray(security) &&
      security.some((req) => Object.keys(req ?? {}).some((s) => login.schemes.has(s)));
    if (!named || op === login.op) continue;
    const [key, source] = sentToken(doc, op, login);
    if (key === TOKEN_CAPTURE) continue;
    const where = typeof source === "string" ? source : "a member named like a refresh token";
    lines.push(
      `${op.method} ${op.template} renews the token: sent the refresh token ${login.op.method} ${login.op.template} answers (${where}) in its scheme's place`,
    );
  }
  return lines;
}
