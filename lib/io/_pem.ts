/**
 * What a PEM text holds, read from its block labels alone (the runtime reads
 * the blocks themselves). Deno API family: none.
 *
 * @module
 */

/**
 * The labels of a PEM text's blocks: `CERTIFICATE`, `PRIVATE KEY`, `RSA PRIVATE KEY`…
 *
 * @example
 * ```ts
 * import { blocks } from "./_pem.ts";
 * const pem = "-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n";
 * if (blocks(pem).join() !== "CERTIFICATE") throw new Error();
 * ```
 */
export function blocks(pem: string): string[] {
  return [...pem.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----/g)].map((m) => m[1]);
}

/**
 * Whether a block label is a certificate's.
 *
 * @example
 * ```ts
 * import { isCertificate } from "./_pem.ts";
 * if (!isCertificate("CERTIFICATE") || isCertificate("PRIVATE KEY")) throw new Error();
 * ```
 */
export const isCertificate = (label: string): boolean => label === "CERTIFICATE";

/**
 * Whether a block label is an unencrypted private key's.
 *
 * @example
 * ```ts
 * import { isKey } from "./_pem.ts";
 * if (!isKey("RSA PRIVATE KEY") || isKey("ENCRYPTED PRIVATE KEY")) throw new Error();
 * ```
 */
export const isKey = (label: string): boolean => /^(?:RSA |EC )?PRIVATE KEY$/.test(label);

/**
 * What a PEM text holds, in words, for messages.
 *
 * @example
 * ```ts
 * import { holds } from "./_pem.ts";
 * if (holds([]) !== "holds no PEM block") throw new Error();
 * if (holds(["PRIVATE KEY"]) !== "holds a private key, not a certificate") throw new Error();
 * ```
 */
export function holds(labels: string[]): string {
  if (labels.some(isKey)) return "holds a private key, not a certificate";
  if (labels.some(isCertificate)) return "holds a certificate, not a private key";
  if (labels.includes("ENCRYPTED PRIVATE KEY")) return "holds an encrypted private key";
  return labels.length === 0
    ? "holds no PEM block"
    : `holds ${labels.map((l) => `"${l}"`).join(", ")}, neither a certificate nor a key`;
}
