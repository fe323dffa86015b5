/**
 * `auth:` of a flow, a step or an `--auth-file`: one kind (`basic`,
 * `bearer`, `api_key`, `oauth2`, `digest`, `aws_sigv4`) with its keys, or
 * `auth: none`. A credential (a password, a token, a secret) must be an
 * expression: a literal one is refused, so no secret is written in a flow.
 *
 * @module
 */
import type { Node } from "yaml";
import { isMap, isScalar } from "./nodes.ts";
import { isConstant, type Template } from "../expr/template.ts";
import {
  type ApiKeyPlace,
  type Auth,
  AUTH_KINDS,
  type AuthKind,
  DEVICE_CODE_GRANT,
  OAUTH2_GRANTS,
  type OAuth2Auth,
  type OAuth2Grant,
} from "../model/auth.ts";
import type { Loading } from "./context.ts";
import { describe } from "./describe.ts";
import { ENDPOINTS, urlScheme } from "./auth_endpoint.ts";
import { basicPlace } from "./auth_basic.ts";
import { loadBearer } from "./auth_bearer.ts";
import type { Entry, TemplateUse } from "./entry.ts";

/** A kind's keys: which are required, and which hold a credential (never a literal). */
interface KindKeys {
  keys: readonly string[];
  required: readonly string[];
  secret: readonly string[];
}

/**
 * The keys of each kind. `digest` and `aws_sigv4` are read here and applied
 * by their signing modules in `lib/http/`.
 *
 * @example
 * ```ts
 * import { AUTH_KEYS } from "./auth.ts";
 * if (!AUTH_KEYS.basic.secret.includes("password")) throw new Error();
 * ```
 */
export const AUTH_KEYS: Record<AuthKind, KindKeys> = {
  basic: {
    keys: ["username", "password", "header", "scheme"],
    required: ["username", "password"],
    secret: ["password"],
  },
  // "token" or "command" (auth_bearer.ts), one of them.
  bearer: {
    keys: ["token", "command", "refresh_after", "scheme"],
    required: [],
    secret: ["token"],
  },
  api_key: { keys: ["name", "value", "in"], required: ["name", "value"], secret: ["value"] },
  oauth2: {
    keys: [
      "grant_type",
      "token_url",
      "device_authorization_url",
      "client_id",
      "client_secret",
      "scope",
      "audience",
      "username",
      "password",
      "refresh_token",
      "extra",
      "client_auth",
    ],
    required: ["grant_type", "token_url", "client_id"],
    secret: ["client_secret", "password", "refresh_token"],
  },
  digest: {
    keys: ["username", "password"],
    required: ["username", "password"],
    secret: ["password"],
  },
  aws_sigv4: {
    keys: [
      "region",
      "service",
      "access_key_id",
      "secret_access_key",
      "session_token",
      "profile",
      "payload",
    ],
    required: ["region", "service"],
    secret: ["access_key_id", "secret_access_key", "session_token"],
  },
};

/** The keys each grant needs besides the common ones. */
const GRANT_NEEDS: Record<OAuth2Grant, readonly string[]> = {
  client_credentials: [],
  password: ["username", "password"],
  refresh_token: ["refresh_token"],
  device_code: ["device_authorization_url"],
};

/** Where an `auth` block is read: for messages, and the owner of its templates. */
export interface AuthSite {
  /** "the flow", `step "login"`, or the auth file. */
  what: string;
  owner: TemplateUse["owner"];
}

/**
 * An `auth` entry: `none`, or a map of one kind to its keys.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const ok = loadFlow(
 *   'name: f\nauth: {bearer: {token: "${setup.token}"}}\nsteps:\n  - name: s\n' +
 *     '    request: {url: "http://x.test"}\n  - name: t\n    auth: none\n    request: {url: "http://x.test"}\n',
 *   "f.yaml",
 * );
 * if (ok.flow?.auth?.kind !== "bearer" || ok.flow.steps[1].auth?.kind !== "none") throw new Error();
 * const bad = loadFlow(
 *   'name: f\nauth: {bearer: {token: abc}}\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n',
 *   "f.yaml",
 * );
 * if (bad.problems[0]?.code !== "literal-credential") throw new Error(JSON.stringify(bad.problems));
 * ```
 */
export function loadAuth(ctx: Loading, entry: Entry | undefined, site: AuthSite): Auth | undefined {
  if (!entry) return undefined;
  const node = ctx.deref(entry.value);
  if (isScalar(node) && node.value === "none") return { kind: "none" };
  const what = `"auth" of ${site.what}`;
  const map = ctx.map(node, what, "auth", [...AUTH_KINDS], { anchor: entry.keyNode });
  if (!map) return undefined;
  const kinds = [...map.values()];
  // A misspelt kind was reported as an unknown key: that is the one problem.
  if (kinds.length === 0 && isMap(node) && node.items.length > 0) return undefined;
  if (kinds.length !== 1) {
    ctx.problem(
      "wrong-type",
      kinds.length === 0
        ? `Expected ${what} to name one kind, got an empty map.`
        : `Expected ${what} to name one kind, got ${kinds.map((k) => k.key).join(" and ")}.`,
      kinds[1]?.keyNode ?? node,
      `Write one of ${AUTH_KINDS.join(", ")} under "auth", or auth: none to send no credentials.`,
    );
    return undefined;
  }
  return loadKind(ctx, kinds[0], site);
}

/**
 * The flow's `auth`, as the flow's fields: `{auth}`, or none. It is read at
 * each step's request, after any step: like `outputs`, it may read every
 * capture (one a step has not made yet is an error of that step).
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { flow } = loadFlow('name: f\nauth: none\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n', "f.yaml");
 * if (flow?.auth?.kind !== "none" || flow.steps[0].auth?.kind !== "none") throw new Error();
 * ```
 */
export function loadFlowAuth(ctx: Loading, entry: Entry | undefined): { auth?: Auth } {
  const auth = loadAuth(ctx, entry, { what: "the flow", owner: { kind: "outputs" } });
  return auth ? { auth } : {};
}

/** One kind's map, its keys read as templates. */
function loadKind(ctx: Loading, entry: Entry, site: AuthSite): Auth | undefined {
  const kind = entry.key as AuthKind;
  const spec = AUTH_KEYS[kind];
  const what = `"${kind}" of ${site.what}`;
  const map = ctx.map(ctx.deref(entry.value), what, `auth_${kind}`, spec.keys, {
    required: spec.required,
    anchor: entry.keyNode,
  });
  if (!map) return undefined;
  const before = ctx.problems.length;
  const t: Record<string, Template | undefined> = {};
  for (const key of spec.keys) {
    // Words, not templates: read by build (and auth_basic.ts, auth_bearer.ts).
    if (["in", "grant_type", "client_auth", "extra", "payload", "header"].includes(key)) continue;
    if (kind === "basic" && key === "scheme") continue;
    if (kind === "api_key" && key === "name") continue;
    // A command is a list, refresh_after a duration: auth_bearer.ts reads them.
    if (kind === "bearer" && key !== "token") continue;
    t[key] = credential(ctx, map.get(key), `"${key}" of ${what}`, site, spec.secret.includes(key));
  }
  const auth = kind === "bearer"
    ? loadBearer(ctx, map, t.token, what, site.owner, entry)
    : build(ctx, kind, map, t, what, site);
  // Its token requests are entries of the reports: they point at the block that asked for them.
  if (auth?.kind === "oauth2") auth.at = { file: ctx.file, ...ctx.at(entry.keyNode) };
  return ctx.problems.length === before ? auth : undefined;
}

/** The loaded kind from its templates and its keys that are words. */
function build(
  ctx: Loading,
  kind: AuthKind,
  map: Map<string, Entry>,
  t: Record<string, Template | undefined>,
  what: string,
  site: AuthSite,
): Auth | undefined {
  switch (kind) {
    case "basic": {
      const place = basicPlace(ctx, map, what);
      return place === null
        ? undefined
        : { kind, username: t.username!, password: t.password!, ...place };
    }
    case "digest":
      return { kind, username: t.username!, password: t.password! };
    case "bearer": // Read by loadBearer (auth_bearer.ts), which knows its two forms.
      return undefined;
    case "api_key": {
      const name = ctx.string(map.get("name"), `"name" of ${what}`);
      const place = word(ctx, map.get("in"), `"in" of ${what}`, ["header", "query", "cookie"]);
      return name === undefined
        ? undefined
        : { kind, name, value: t.value!, in: (place ?? "header") as ApiKeyPlace };
    }
    case "oauth2":
      return oauth2(ctx, map, t, what, site);
    case "aws_sigv4": {
      const payload = word(ctx, map.get("payload"), `"payload" of ${what}`, ["signed", "unsigned"]);
      return {
        kind,
        region: t.region!,
        service: t.service!,
        ...optional({
          accessKeyId: t.access_key_id,
          secretAccessKey: t.secret_access_key,
          sessionToken: t.session_token,
          profile: t.profile,
        }),
        ...(payload === "unsigned" ? { unsignedPayload: true as const } : {}),
      };
    }
  }
}

/** `oauth2`: its grant, what the grant needs, its client authentication and extra parameters. */
function oauth2(
  ctx: Loading,
  map: Map<string, Entry>,
  t: Record<string, Template | undefined>,
  what: string,
  site: AuthSite,
): OAuth2Auth | undefined {
  const grant = grantOf(ctx, map.get("grant_type"), what);
  const clientAuth = word(ctx, map.get("client_auth"), `"client_auth" of ${what}`, [
    "basic",
    "body",
  ]);
  const extra = extraParams(ctx, map.get("extra"), what, site);
  for (const key of ["token_url", "device_authorization_url"]) urlScheme(ctx, map.get(key), what);
  if (grant === undefined) return undefined;
  for (const key of GRANT_NEEDS[grant].filter((k) => !map.has(k))) {
    const device = key === "device_authorization_url";
    ctx.problem(
      "missing-key",
      `Missing key "${key}" in ${what}: the ${grant} grant ${
        device ? "asks for its device code there" : "sends it"
      }.`,
      map.get("grant_type")!.value,
      `Add ${key}: ${device ? ENDPOINTS[key] : `"\${ENV.${key.toUpperCase()}}"`}.`,
    );
  }
  return {
    kind: "oauth2",
    grantType: grant,
    tokenUrl: t.token_url!,
    clientId: t.client_id!,
    clientAuth: (clientAuth ?? "basic") as "basic" | "body",
    extra,
    ...optional({
      clientSecret: t.client_secret,
      scope: t.scope,
      audience: t.audience,
      username: t.username,
      password: t.password,
      refreshToken: t.refresh_token,
      deviceAuthorizationUrl: t.device_authorization_url,
    }),
  };
}

/** `grant_type`: one of the grants, RFC 8628's URN standing for `device_code`. */
function grantOf(ctx: Loading, entry: Entry | undefined, what: string): OAuth2Grant | undefined {
  const grant = word(ctx, entry, `"grant_type" of ${what}`, [...OAUTH2_GRANTS, DEVICE_CODE_GRANT]);
  return grant === DEVICE_CODE_GRANT ? "device_code" : grant as OAuth2Grant | undefined;
}

/** `extra: {resource: …}`: more form parameters of the token request. */
function extraParams(
  ctx: Loading,
  entry: Entry | undefined,
  what: string,
  site: AuthSite,
): [string, Template][] {
  if (!entry) return [];
  const node = ctx.deref(entry.value);
  if (!isMap(node)) {
    ctx.problem(
      "wrong-type",
      `Expected "extra" of ${what} to be a map of parameter names to values, got ${
        describe(node)
      }.`,
      node ?? entry.keyNode,
      "For example: extra: {resource: https://api.example}",
    );
    return [];
  }
  const out: [string, Template][] = [];
  for (const e of ctx.entries(node)) {
    const value = credential(ctx, e, `"${e.key}" of "extra" of ${what}`, site, false);
    if (value) out.push([e.key, value]);
  }
  return out;
}

/** One of a few words. */
function word(
  ctx: Loading,
  entry: Entry | undefined,
  what: string,
  words: readonly string[],
): string | undefined {
  if (!entry) return undefined;
  const node = entry.value;
  if (isScalar(node) && typeof node.value === "string" && words.includes(node.value)) {
    return node.value;
  }
  ctx.problem(
    "wrong-type",
    `Expected ${what} to be one of ${words.join(", ")}, got ${describe(node)}.`,
    node ?? entry.keyNode,
    `Write one of: ${words.join(", ")}.`,
  );
  return undefined;
}

/** A key's value as a template; a credential's must read its value from somewhere. */
function credential(
  ctx: Loading,
  entry: Entry | undefined,
  what: string,
  site: AuthSite,
  secret: boolean,
): Template | undefined {
  if (!entry) return undefined;
  const node = entry.value;
  if (!isScalar(node) || (typeof node.value !== "string" && typeof node.value !== "number")) {
    ctx.problem(
      "wrong-type",
      `Expected ${what} to be a string, got ${describe(node)}.`,
      node ?? entry.keyNode,
      `Write ${entry.key}: "\${ENV.${entry.key.toUpperCase()}}".`,
    );
    return undefined;
  }
  if (typeof node.value === "number") {
    return { source: String(node.value), parts: [String(node.value)] };
  }
  const template = ctx.template(node, site.owner);
  if (template && secret && isConstant(template)) literalCredential(ctx, node, what, entry.key);
  return template;
}

/** A credential written as it is: refused, with where to read it from instead. */
function literalCredential(ctx: Loading, node: Node, what: string, key: string): void {
  ctx.problem(
    "literal-credential",
    `The value of ${what} is written in the file as it is: a credential must not be written ` +
      "in a flow or an auth file, where it is committed and shown.",
    node,
    `Read it from the environment or a secret file: ${key}: "\${ENV.${key.toUpperCase()}}", a var from --vars-file, or a setup output (\${setup.${key}}).`,
  );
  ctx.concealLast();
}

/** The fields that were given. */
function optional<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<
    T
  >;
}
