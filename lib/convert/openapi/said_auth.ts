/**
 * HTTP Basic or Digest auth that a document says in words, not in a
 * security scheme: httpbin's `GET /basic-auth/{user}/{passwd}` ("Prompts
 * the user for authorization using HTTP Basic Auth.") and
 * `/digest-auth/{qop}/{user}/{passwd}` declare none, and the server
 * accepts the user and password the path names. The evidence is both: the
 * operation's summary or description names the kind, and its path holds a
 * user and a password parameter, which are then the credentials. The step
 * sends the run's own (`${vars.username}`, `${vars.password}`, made per run
 * as a body's are: `run_values.ts`) in the path and in its `auth:` block:
 * no literal credential, and nothing for the user to fill in. They were
 * placeholders (`string`) with no `auth:`: 401. A declared scheme wins; an
 * operation whose words name no kind keeps its path as it was.
 *
 * @module
 */
import { ymap } from "../yaml_out.ts";
import type { AuthSchemes, StepAuth } from "./auth.ts";
import { schemeBlock } from "./auth_blocks.ts";
import { isPasswordField } from "./password_field.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";

/** "HTTP Basic Auth", "Digest Auth", "basic authentication", "digest authorization". */
const SAID = /\b(basic|digest)[ -]auth(?:entication|orization)?\b/i;

/** The name said bearer auth is known by in the summary: `the bearer token of "…"`. */
const SAID_BEARER = "bearer authentication";

/** "bearer authentication", "Bearer auth", "a bearer token". */
const BEARER = /\bbearer[ -](?:auth(?:entication|orization)?|token)\b/i;

/** The path parameter names that hold a user's name (spelling aside). */
const USER_NAMES = new Set(["user", "username", "login", "loginname"]);

/** The kind the words say, and the path parameters holding the user and the password. */
interface Said {
  kind: "basic" | "digest";
  user: string;
  password: string;
}

/** The operation's summary and description. */
const wordsOf = (op: OpenApiOperation) =>
  [op.node.summary, op.node.description].filter((w) => typeof w === "string").join("\n");

function said(op: OpenApiOperation): Said | undefined {
  const kind = SAID.exec(wordsOf(op))?.[1].toLowerCase();
  if (kind !== "basic" && kind !== "digest") return undefined;
  const names = op.params.filter((p) => p.in === "path").map((p) => String(p.name));
  const user = names.find((n) => USER_NAMES.has(plainName(n)));
  const password = names.find((n) => isPasswordField(n));
  return user && password ? { kind, user, password } : undefined;
}

/** Bearer auth its words say, for an `Authorization` header the operation declares (httpbin's `/bearer`). */
function saysBearer(op: OpenApiOperation): boolean {
  const header = op.params.some((p) =>
    p.in === "header" && String(p.name).toLowerCase() === "authorization"
  );
  return header && BEARER.test(wordsOf(op));
}

/**
 * The step's auth where the document declares no security for it (`none`):
 * bearer auth its words say for the `Authorization` header it declares is
 * `bearer: {token: ${ENV.API_TOKEN}}`, the variable the summary asks for
 * as for a declared scheme (a token is the user's, never one made up);
 * Basic or Digest auth is the said kind with the run's user and password,
 * the run vars it reads added to `used`. Else the declared auth.
 *
 * @example
 * ```ts
 * import { AuthSchemes } from "./auth.ts";
 * import { withSaidAuth } from "./said_auth.ts";
 * const op = {
 *   node: { summary: "Prompts for HTTP Basic Auth." },
 *   params: [{ in: "path", name: "user" }, { in: "path", name: "passwd" }],
 * } as unknown as Parameters<typeof withSaidAuth>[0];
 * const used = new Set<string>();
 * const got = withSaidAuth(op, new AuthSchemes({}), used);
 * if (got.block?.entries[0][0] !== "basic" || [...used].join() !== "username,password") throw new Error();
 * ```
 */
export function withSaidAuth(
  op: OpenApiOperation,
  schemes: AuthSchemes,
  used: Set<string>,
): StepAuth {
  const auth = schemes.forOperation(op.node);
  if (!auth.none || auth.block) return auth;
  if (saysBearer(op)) {
    // One name for every such operation: they share the variable, as a declared scheme's steps do.
    const made = schemeBlock(schemes, SAID_BEARER, { type: "http", scheme: "bearer" }, []);
    const note = "no security scheme is declared, but its words say bearer authentication";
    return { ...auth, block: made?.block, notes: [note] };
  }
  const found = said(op);
  if (!found) return auth;
  used.add("username").add("password");
  const creds = ymap([["username", "${vars.username}"], ["password", "${vars.password}"]]);
  const note = `no security scheme is declared, but its words say ${found.kind} auth with the ` +
    `path's ${found.user} and ${found.password}: the run's own, in both`;
  return { ...auth, block: ymap([[found.kind, creds]]), notes: [note] };
}

/**
 * The run var a path parameter is when it holds the said auth's user or
 * password (`${vars.username}`), else undefined.
 *
 * @example
 * ```ts
 * import { saidCredential } from "./said_auth.ts";
 * const op = {
 *   node: { summary: "Prompts the user for authorization using Digest Auth." },
 *   params: [{ in: "path", name: "user" }, { in: "path", name: "passwd" }],
 * } as unknown as Parameters<typeof saidCredential>[0];
 * const none = { forOperation: () => ({ none: true, notes: [], credentials: { headers: [], query: [], cookies: [], comments: [] }, places: new Map() }) };
 * if (saidCredential(op, "passwd", none) !== "${vars.password}") throw new Error();
 * if (saidCredential({ ...op, node: {} }, "passwd", none) !== undefined) throw new Error();
 * ```
 */
export function saidCredential(
  op: OpenApiOperation,
  param: string,
  schemes: Pick<AuthSchemes, "forOperation">,
): string | undefined {
  const declared = schemes.forOperation(op.node);
  const found = declared.none && !declared.block ? said(op) : undefined;
  if (found?.user === param) return "${vars.username}";
  return found?.password === param ? "${vars.password}" : undefined;
}
