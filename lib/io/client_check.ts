/**
 * Whether the HTTP client a run needs can be built, checked before anything
 * is sent: trusted CA files, a client certificate and its key, a proxy URL.
 * The runtime builds the client at the first request, so without this a CA
 * file that is no certificate, `--cert` and `--key` given the wrong way
 * round, or a proxy password it cannot read ended the run there, reports
 * and all. Each part is checked on its own, so the message names the option
 * at fault, says what is wrong and how to fix it. Deno API family:
 * `Deno.createHttpClient` (through `httpClientError`).
 *
 * @module
 */
import { type ClientOptions, httpClientError } from "./http_client.ts";
import { maskUserinfo } from "../secrets/userinfo.ts";
import { blocks, holds, isCertificate, isKey } from "./_pem.ts";

/** How the caller's messages name each part (an option and its file, masked for a proxy). */
export interface ClientNames {
  /** The `i`-th CA file, e.g. `--cacert "ca.pem"`. */
  ca(index: number): string;
  /** The client certificate file, e.g. `--cert "client.pem"`. */
  cert: string;
  /** The client key file, e.g. `--key "client.key"`. */
  key: string;
  /** The proxy option with its URL quoted, e.g. `--proxy "http://u:***@h:3128"`. */
  proxy: string;
}

/** What is wrong, with the part at fault and the fix. */
export interface ClientProblem {
  /** The part at fault: which option's code to report. */
  part: "ca" | "cert" | "key" | "proxy";
  /** For `ca`: which of the CA files. */
  index?: number;
  /** A sentence that names the option and quotes its value. */
  message: string;
  /** How to fix it. */
  hint: string;
}

/** The proxy schemes the runtime's client can use. */
const PROXY_SCHEMES = ["http:", "https:", "socks5:", "socks5h:"];

/** How a proxy URL is written, with the characters a user name or password must encode. */
const URL_HINT =
  "Write scheme://user:password@host:port, with a /, ?, #, % or \\ in the user name or password percent-encoded (%2F, %3F, %23, %25, %5C).";

const refusals = new Map<string, Error | undefined>();

/** The runtime's error for these options, asked once per process: flows share their files. */
function refusal(options: ClientOptions): Error | undefined {
  const id = JSON.stringify([options.caCerts, options.cert, options.key, options.proxy]);
  if (!refusals.has(id)) refusals.set(id, httpClientError(options));
  return refusals.get(id);
}

/**
 * The first problem of these client settings, or `undefined` when a client
 * can be built with them. With `insecure`, requests go through Node's TLS
 * instead, which reaches servers through `http://` proxies only.
 *
 * @example
 * ```ts
 * import { clientProblem } from "./client_check.ts";
 * const names = { ca: () => "--cacert", cert: "--cert", key: "--key", proxy: "--proxy" };
 * if (clientProblem({ proxy: "http://u:pa ss@127.0.0.1:3128" }, names) !== undefined) throw new Error();
 * const bad = clientProblem({ caCerts: ["not a certificate"] }, names);
 * if (bad?.part !== "ca") throw new Error(JSON.stringify(bad));
 * const ftp = clientProblem({ proxy: "ftp://127.0.0.1:21" }, names);
 * if (ftp?.part !== "proxy") throw new Error();
 * ```
 */
export function clientProblem(
  options: ClientOptions & { insecure?: boolean },
  names: ClientNames,
): ClientProblem | undefined {
  const cas = options.caCerts ?? [];
  for (let i = 0; i < cas.length; i++) {
    const problem = caProblem(cas[i]);
    if (problem) return { ...problem, index: i, message: `${names.ca(i)} ${problem.message}` };
  }
  if (options.cert !== undefined && options.key !== undefined) {
    const problem = pairProblem(options.cert, options.key, names);
    if (problem) return problem;
  }
  return options.proxy === undefined
    ? undefined
    : proxyProblem(options.proxy, names.proxy, options.insecure);
}

/** Why the runtime refused, in its own words, without a trailing period. */
const reason = (error: Error) => error.message.replace(/\.$/, "");

/** What is wrong with a CA file, said of it without its name. */
function caProblem(pem: string): ClientProblem | undefined {
  if (!blocks(pem).some(isCertificate)) {
    return {
      part: "ca",
      message: `${holds(blocks(pem))}.`,
      hint:
        "Give the CA's certificate in PEM form (-----BEGIN CERTIFICATE-----): the one that signed the server's certificate.",
    };
  }
  const error = refusal({ caCerts: [pem] });
  return error && {
    part: "ca",
    message: `holds a certificate that cannot be read (${reason(error)}).`,
    hint:
      "Check that the file is whole: openssl x509 -in FILE -noout -subject must print its name.",
  };
}

function pairProblem(cert: string, key: string, names: ClientNames): ClientProblem | undefined {
  const certBlocks = blocks(cert);
  const keyBlocks = blocks(key);
  const certOk = certBlocks.some(isCertificate);
  const keyOk = keyBlocks.some(isKey);
  if (!certOk && !keyOk && certBlocks.some(isKey) && keyBlocks.some(isCertificate)) {
    return {
      part: "cert",
      message:
        `${names.cert} holds a private key and ${names.key} a certificate: the two are swapped.`,
      hint: `Swap the files: the certificate goes to ${names.cert.split(" ")[0]}, its key to ${
        names.key.split(" ")[0]
      }.`,
    };
  }
  if (!certOk) {
    return {
      part: "cert",
      message: `${names.cert} ${holds(certBlocks)}.`,
      hint: "Give the client certificate in PEM form (-----BEGIN CERTIFICATE-----).",
    };
  }
  if (!keyOk) {
    const encrypted = keyBlocks.includes("ENCRYPTED PRIVATE KEY");
    return {
      part: "key",
      message: encrypted
        ? `${names.key} is encrypted with a passphrase, which flowrun cannot ask for.`
        : `${names.key} ${holds(keyBlocks)}.`,
      hint: encrypted
        ? "Decrypt it to a file only you can read: openssl pkey -in client.key -out client-plain.key"
        : "Give the certificate's private key in PEM form (-----BEGIN PRIVATE KEY-----).",
    };
  }
  const error = refusal({ cert, key });
  if (!error) return undefined;
  return /mismatch|not be consistent/i.test(error.message)
    ? {
      part: "key",
      message: `${names.key} is not the private key of the certificate in ${names.cert}.`,
      hint:
        "Give the key the certificate was made for: openssl x509 -noout -pubkey -in CERT and openssl pkey -pubout -in KEY print the same key.",
    }
    : {
      part: "cert",
      message: `${names.cert} and ${names.key} cannot be used together (${reason(error)}).`,
      hint:
        "Check both files: openssl x509 -in CERT -noout -subject and openssl pkey -in KEY -noout must succeed.",
    };
}

function proxyProblem(
  proxy: string,
  name: string,
  insecure: boolean | undefined,
): ClientProblem | undefined {
  let url: URL;
  try {
    url = new URL(proxy);
  } catch {
    return {
      part: "proxy",
      message: `${name} is not a URL.`,
      hint: URL_HINT,
    };
  }
  // A proxy URL names a server: a path, query or fragment is a `/`, `?` or `#` of the password
  // left unencoded (`http://u:12/pw@host` reads as port 12 of host "u" and a path).
  if (url.pathname.length > 1 || url.search !== "" || url.hash !== "") {
    return {
      part: "proxy",
      message: `${name} has a path, query or fragment, which a proxy URL has not.`,
      hint: URL_HINT,
    };
  }
  if (!PROXY_SCHEMES.includes(url.protocol) || url.hostname === "") {
    return {
      part: "proxy",
      message: url.hostname === ""
        ? `${name} names no host.`
        : `${name} is a "${url.protocol}//" URL, which is no proxy flowrun can use.`,
      hint: "Write http://host:port, https://host:port, socks5://host:port or socks5h://host:port.",
    };
  }
  if (insecure && url.protocol !== "http:") {
    return {
      part: "proxy",
      message: `${name} is an ${url.protocol}// proxy, but requests with insecure TLS go ` +
        `through http:// proxies only.`,
      hint: "Use an http:// proxy, or trust the server's CA with --cacert instead of --insecure.",
    };
  }
  const error = refusal({ proxy });
  return error && {
    part: "proxy",
    message: `${name} cannot be used (${maskUserinfo(reason(error), { proxy: true })}).`,
    hint: "Check the host name and the port (1 to 65535).",
  };
}
