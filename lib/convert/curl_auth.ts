/**
 * `-u`, `--digest` and `--aws-sigv4` as the step's `auth:` block: Basic and Digest
 * credentials, or an AWS Signature Version 4 with its region and service. A password (and a
 * user name that is the whole credential, as `-u sk_test_…:` is) becomes a required
 * environment variable, as recorded secrets do; `$NAME` written in the command stays the
 * user's own reference; nothing is base64-encoded by hand any more.
 *
 * @module
 */
import { type Correlator, secretEnv, useProducer } from "./correlate/mod.ts";
import type { Step } from "./model.ts";
import type { CurlExtras } from "./curl_request.ts";
import { ENV_MARKER } from "./curl_shell.ts";
import { ymap, type YNode } from "./yaml_out.ts";
import { typedOnce } from "./correlate/typed_once.ts";
import { isPlaceholderUser } from "./curl_login_user.ts";
import { bodyFields, PASSWORD_KEY } from "./curl_body_fields.ts";

const hasMarker = (text: string) => new RegExp(ENV_MARKER.source).test(text);

/**
 * The `auth:` of a step whose command has `-u` or `--aws-sigv4`, for its URL's host. A user
 * name an earlier answer gave (`-u TOKEN:x` after a pasted `{"token": …}`) is that answer's
 * capture, and the password beside it is sent as written: the server reads the token, the docs
 * set the password "arbitrarily". A password the docs show refused (the answer pasted under the
 * command is a 401 or 403) is no credential of the user's, and is sent as written too, unless
 * an earlier command's body sent that name with that password: the docs made the account, and
 * its refusal is its role's (a 403), so it sends what the account was made with.
 *
 * @example
 * ```ts
 * import { curlAuth } from "./curl_auth.ts";
 * import { newCorrelator } from "./correlate/mod.ts";
 * const c = newCorrelator("a");
 * const notes: string[] = [];
 * const node = curlAuth(c, { scheme: "digest", user: "ann:pw-1" }, "a.test", notes);
 * if (JSON.stringify(node).includes("pw-1") || !c.env.has("DIGEST_PASSWORD")) throw new Error();
 * ```
 */
export function curlAuth(
  c: Correlator,
  auth: NonNullable<CurlExtras["auth"]>,
  host: string,
  notes: string[],
  step?: Step,
): YNode {
  const [user, password] = splitUser(auth.user, notes);
  const token = step && !hasMarker(user) ? c.rules.producerFor(user) : undefined;
  if (auth.scheme === "aws_sigv4") return sigv4(c, auth.sigv4 ?? "", user, password, host, notes);
  const base = auth.scheme === "digest" ? "DIGEST" : "BASIC";
  // `-u key:` (Stripe's): the user name is the credential, and there is no password.
  const keyOnly = password === "" && user !== "" && !hasMarker(user);
  const username = token && step
    ? useProducer(c, token, step)
    : keyOnly
    ? `\${ENV.${
      secretEnv(c, `${base}_USER`, user, `the user name of -u, which is the credential`)
    }}`
    : placeholderUser(c, user, base, step) ?? credential(c, user, "", "");
  const pass = passwordOf(c, base, [user, password], token !== undefined, step);
  return ymap([[auth.scheme, ymap([["username", username], ["password", pass]])]]);
}

/**
 * A user name the docs wrote as a placeholder for the reader's own: capitals naming what goes
 * there (`USERNAME`, `YOUR_EMAIL`), `<user>`, `your-…`; WordPress's handbook prints
 * `--user "USERNAME:PASSWORD"`, and the flow sent the word `USERNAME`. So do the words that
 * name such a field (`-u username:password`, `email`), as `curl_login_user.ts` reads a login's
 * body; `-u user:password` is the account `user`.
 */
const PLACEHOLDER_USER = /^(?=[A-Z0-9_]*ACCOUNT)[A-Z][A-Z0-9_]*$/;

/** A placeholder user name as a variable to set (no secret: it is shown in reports). */
function placeholderUser(
  c: Correlator,
  user: string,
  base: string,
  step: Step | undefined,
): string | undefined {
  if (hasMarker(user) || !(PLACEHOLDER_USER.test(user) || isPlaceholderUser("username", user))) {
    return undefined;
  }
  // httpbin's `-u user:passwd …/basic-auth/user/passwd`: a name the URL's own path names is the
  // server's, whatever it looks like.
  if (step?.first.url.pathname.split("/").includes(user)) return undefined;
  const name = `${base}_USER`;
  c.env.set(name, { about: `the user name of -u, written as a placeholder (${user})` });
  return `\${ENV.${name}}`;
}

/** `user:password` split at the first colon; curl asks for a missing password, a flow cannot. */
function splitUser(user: string | undefined, notes: string[]): [string, string] {
  if (user === undefined) return ["", ""];
  const colon = user.indexOf(":");
  if (colon !== -1) return [user.slice(0, colon), user.slice(colon + 1)];
  notes.push(`-u "${user}" has no password: curl would ask for one; the flow sends it empty.`);
  return [user, ""];
}

/** `-u`'s password as the flow sends it, beside a user name that is a token or not. */
function passwordOf(
  c: Correlator,
  base: string,
  [user, password]: [string, string],
  token: boolean,
  step: Step | undefined,
): string {
  // No password written: empty, as curl sends it, unless the variable is set.
  if (password === "") return `\${ENV.${base}_PASSWORD:-}`;
  if (token) return asWritten(c, base, password, "beside a token");
  const refused = step?.first.status === 401 || step?.first.status === 403;
  if (refused && !sentBefore(c, step!, user, password)) {
    return asWritten(c, base, password, "the docs show refused");
  }
  const ref = credential(c, password, `${base}_PASSWORD`, "the password of -u");
  if (!hasMarker(user)) namePlaces(c, ref, user);
  return ref;
}

/** Per variable: what it was first asked as, and the `-u` user names that send it. */
const places = new WeakMap<Correlator, Map<string, { about: string; users: string[] }>>();

/**
 * The summary's words for a variable that one typed password became, naming each place it is
 * sent: a roles page types `password` for the super user's `-u` and for the user it adds, and
 * the variable said only "the "password" field sent by step "post_root"", so a reader set the
 * new user's password there, not the super user's own. Said once the variable serves a second
 * place: `…, and the password of -u for admin and alice`.
 */
function namePlaces(c: Correlator, ref: string, user: string): void {
  const name = /^\$\{ENV\.(\w+)\}$/.exec(ref)?.[1];
  const asked = name === undefined ? undefined : c.env.get(name);
  if (!name || !asked) return;
  if (!places.has(c)) places.set(c, new Map());
  const seen = places.get(c)!;
  const entry = seen.get(name) ?? { about: asked.about ?? "", users: [] };
  seen.set(name, entry);
  if (!entry.users.includes(user)) entry.users.push(user);
  const own = entry.about === "the password of -u";
  if (own && entry.users.length < 2) return;
  const who = `the password of -u for ${entry.users.join(" and ")}`;
  asked.about = own ? who : `${entry.about}, and ${who}`;
}

/**
 * Whether an earlier command's body sent this `-u`'s name and password together: an account
 * the docs made (a user added with that password), whose refusal is by its role, not a wrong
 * password. Its password is then the one the account was made with, asked for once.
 */
function sentBefore(c: Correlator, step: Step, user: string, password: string): boolean {
  return c.steps.slice(0, c.steps.indexOf(step)).some((s) => {
    const fields = bodyFields(s.first);
    return fields.some(([, v]) => v === user) &&
      fields.some(([k, v]) => PASSWORD_KEY.test(k) && v === password);
  });
}

/**
 * A password that is no credential of the user's, sent as written unless its variable is set
 * (a bare literal is refused on load, as any written password is).
 */
function asWritten(c: Correlator, base: string, password: string, why: string): string {
  let name = `${base}_PASSWORD`;
  for (let n = 2; c.env.has(name); n++) name = `${base}_PASSWORD_${n}`;
  c.env.set(name, { about: `the password of -u, ${why}`, fallback: password });
  return c.sp.envRef(name, c.sp.lit(password));
}

/** A value as the flow writes it: `$NAME` as written, a secret as a variable, else literal. */
function credential(c: Correlator, value: string, env: string, about: string): string {
  // A sign-up's account name (curl_accounts.ts) is the run's own wherever it is sent.
  if (env === "" && c.generated.has(value)) return c.generated.get(value)!;
  if (hasMarker(value) || env === "") return c.sp.lit(value);
  return `\${ENV.${typedOnce(c, value, () => secretEnv(c, env, value, about))}}`;
}

/**
 * `--aws-sigv4 "aws:amz:REGION:SERVICE"`; a region or service left out is read from an AWS
 * host name (`sqs.eu-west-1.amazonaws.com`, `id.execute-api.us-east-1.amazonaws.com`), as curl
 * reads it; keys from `-u`, else the standard AWS variables the kind reads by itself.
 */
function sigv4(
  c: Correlator,
  spec: string,
  user: string,
  password: string,
  host: string,
  notes: string[],
): YNode {
  const [, , region, service] = spec.split(":");
  const labels = host.toLowerCase().split(".");
  const aws = labels.slice(-2).join(".") === "amazonaws.com" && labels.length >= 3;
  const fromHost = aws
    ? {
      service: labels.at(-4) ?? labels.at(-3)!,
      region: labels.length >= 4 ? labels.at(-3)! : "us-east-1",
    }
    : undefined;
  const r = region || fromHost?.region;
  const s = service || fromHost?.service;
  if (!r || !s) {
    notes.push(
      `--aws-sigv4 "${spec}" names no region and service, and the host "${host}" is no AWS host: set them in the step's auth.`,
    );
  }
  if (user !== "" && password === "") {
    notes.push(
      `-u "${user}" for --aws-sigv4 has no secret key; the standard AWS variables are read.`,
    );
  }
  const keys: [string, YNode][] = user === "" || password === "" ? [] : [
    ["access_key_id", credential(c, user, "AWS_ACCESS_KEY_ID", "the AWS access key id of -u")],
    [
      "secret_access_key",
      credential(c, password, "AWS_SECRET_ACCESS_KEY", "the AWS secret access key of -u"),
    ],
  ];
  return ymap([[
    "aws_sigv4",
    ymap([["region", r ?? "REGION"], ["service", s ?? "SERVICE"], ...keys]),
  ]]);
}
