/**
 * `flowrun convert har --verify [BASE_URL]`: the conversion replayed and
 * repaired against a live instance (`lib/convert/verify.ts`) before the flow
 * is written, with the verification's lines after the summary.
 *
 * @module
 */
import type { ConvertOptions, ConvertResult } from "../lib/convert/har.ts";
import { UsageError } from "../lib/model/errors.ts";

/**
 * The arguments with a bare `--verify` (no URL after it) spelled `--verify=`,
 * so the option parser takes it without a value: the URL is optional.
 *
 * @example
 * ```ts
 * import { optionalVerify } from "./convert_verify.ts";
 * if (optionalVerify(["a.har", "--verify", "-o", "f.yaml"]).join(" ") !== "a.har --verify= -o f.yaml") throw new Error();
 * if (optionalVerify(["--verify", "http://x.test"])[1] !== "http://x.test") throw new Error();
 * ```
 */
export function optionalVerify(args: readonly string[]): string[] {
  return args.map((arg, i) =>
    arg === "--verify" && !/^https?:\/\//i.test(args[i + 1] ?? "") ? "--verify=" : arg
  );
}

/** What a verified conversion gives the CLI. */
export interface Verified {
  result: ConvertResult;
  /** The verification's lines for stderr. */
  text: string;
  /** Whether a step still does not pass, or was not sent. */
  failing: boolean;
}

/**
 * Converts, verifies against `url` ("" for `BASE_URL` or the recorded
 * origin) with the environment the flow's variables come from, and writes.
 * An upload's file already beside the flow (`beside`: its bytes, by the path
 * the flow names; a binary body's file is no text) is the user's, kept when the flow is written, so it is
 * what the verification sends, not the placeholder.
 */
export async function convertVerified(
  bytes: Uint8Array,
  options: ConvertOptions,
  url: string,
  env: (name: string) => string | undefined,
  beside: (path: string) => Promise<Uint8Array<ArrayBuffer> | undefined> = () =>
    Promise.resolve(undefined),
): Promise<Verified> {
  if (url !== "" && (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))) {
    throw new UsageError(
      "bad-verify-url",
      `Expected an http or https base URL after --verify, got "${url}".`,
      "For example: --verify http://localhost:8080 (or --verify alone for the recorded origins).",
    );
  }
  const [har, verify] = await Promise.all([
    import("../lib/convert/har.ts"),
    import("../lib/convert/verify.ts"),
  ]);
  const prepared = har.prepareConversion(bytes, options);
  for (const path of [...prepared.c.files.keys()]) {
    const kept = await beside(path);
    if (kept !== undefined) prepared.c.files.set(path, kept);
  }
  const report = await verify.verifyConversion(prepared, { baseUrl: url || undefined, env });
  return {
    result: har.finishConversion(prepared, options),
    text: verify.formatVerify(report),
    failing: report.passed < report.steps,
  };
}
