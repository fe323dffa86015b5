/**
 * The TLS settings of a step the processor connects itself (WebSocket, SSE,
 * gRPC), combined as `flowrun run` combines them for a kind's call: the CAs
 * given when exporting (`--cacert`) and the step's or flow's own
 * (`ca_cert`), both trusted besides the system's; the step's client
 * certificate (`client_cert`/`client_key`) else the export's
 * (`--cert`/`--key`); the step's `insecure` else the export's `--insecure`.
 * The PEM files are written beside the script (`tls/N.pem`, a key as
 * `tls/N.key`; the `--cacert` files together as one) and named by the
 * step's data, never put into the processor.
 *
 * @module
 */
import type { StepOptions } from "../model/flow.ts";
import { dataFile } from "./data_file.ts";
import type { ExportScope } from "./scope.ts";

/** What the processor reads of a step's TLS: files beside the script, and `insecure`. */
export interface KindTls {
  ca?: string[];
  cert?: string;
  key?: string;
  insecure?: true;
}

const pem = (scope: ExportScope, text: string, ext: string) =>
  dataFile(scope, "tls", ext, new TextEncoder().encode(text));

/**
 * The file of the CAs given when exporting (`--cacert`), all in one, or
 * undefined when none was given: one file, so that it can be Node's
 * `NODE_EXTRA_CA_CERTS` for Artillery's own HTTP requests too.
 *
 * @example
 * ```ts
 * import { runCaFile } from "./kind_tls.ts";
 * import { newScope } from "./scope.ts";
 * const scope = newScope();
 * scope.network = { caCerts: ["A", "B"] };
 * if (runCaFile(scope) !== "tls/1.pem" || scope.files.size !== 1) throw new Error();
 * ```
 */
export function runCaFile(scope: ExportScope): string | undefined {
  const caCerts = scope.network?.caCerts ?? [];
  return caCerts.length > 0 ? pem(scope, caCerts.join("\n"), "pem") : undefined;
}

/**
 * The step's TLS data, or undefined when it has none (the system's CAs, certificates checked).
 *
 * @example
 * ```ts
 * import { kindTls } from "./kind_tls.ts";
 * import { newScope } from "./scope.ts";
 * const scope = newScope();
 * scope.network = { caCerts: ["-----BEGIN CERTIFICATE-----"] };
 * const tls = kindTls({ insecure: true }, scope);
 * if (tls?.ca?.[0] !== "tls/1.pem" || tls.insecure !== true) throw new Error(JSON.stringify(tls));
 * if (kindTls({}, { ...newScope() }) !== undefined) throw new Error();
 * ```
 */
export function kindTls(options: StepOptions, scope: ExportScope): KindTls | undefined {
  const run = scope.network ?? {};
  const runCa = runCaFile(scope);
  const ca = [...runCa ? [runCa] : [], ...(options.caCerts ?? []).map((t) => pem(scope, t, "pem"))];
  const client = options.clientCert ?? run.clientCert;
  const insecure = options.insecure ?? run.insecure ?? false;
  const tls: KindTls = {
    ...(ca.length > 0 && { ca }),
    ...(client && { cert: pem(scope, client.cert, "pem"), key: pem(scope, client.key, "key") }),
    ...(insecure && { insecure: true as const }),
  };
  return Object.keys(tls).length > 0 ? tls : undefined;
}
