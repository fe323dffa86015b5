/**
 * The loop the converters' fuzz tests share (har_fuzz_test.ts, openapi_fuzz_test.ts,
 * curl_fuzz_test.ts): for each seed, make one mutated input, convert it in process, and write
 * what it gives under `dir/<seed>/` for one `flowrun validate` of them all. A usage error with a
 * message is a refusal; anything else thrown is a failure named by its seed and mutations.
 *
 * @module
 */
import { UsageError } from "../../lib/model/errors.ts";
import { random } from "./hostile.ts";

/** A file a conversion gives, at its path under the seed's folder. */
export interface SeedFile {
  path: string;
  /** Text, or the bytes of a request body that is not UTF-8 text. */
  text: string | Uint8Array<ArrayBuffer>;
}

/** One seed's input: how it was made, for the failure message, and its conversion. */
export interface Seeded {
  name: string;
  convert: () => SeedFile[] | Promise<SeedFile[]>;
}

/** What the seeds gave: the folder, flows written, refusals, failures and each seed's name. */
export interface Seeds {
  dir: string;
  written: number;
  refused: number;
  failures: string[];
  named: Map<number, string>;
}

/**
 * Converts `count` seeded inputs into a new temporary folder the caller removes.
 *
 * @example
 * ```ts
 * import { convertSeeds } from "./fuzz_seeds.ts";
 * const seeds = await convertSeeds(2, (seed) => ({
 *   name: `seed ${seed}`,
 *   convert: () => [{ path: "flow.yaml", text: "name: f\nsteps: []\n" }],
 * }));
 * if (seeds.written !== 2) throw new Error(String(seeds.written));
 * await Deno.remove(seeds.dir, { recursive: true });
 * ```
 */
export async function convertSeeds(
  count: number,
  one: (seed: number, next: () => number) => Seeded,
): Promise<Seeds> {
  const seeds: Seeds = {
    dir: await Deno.makeTempDir(),
    written: 0,
    refused: 0,
    failures: [],
    named: new Map(),
  };
  for (let seed = 1; seed <= count; seed++) {
    const { name, convert } = one(seed, random(seed));
    seeds.named.set(seed, name);
    let files;
    try {
      files = await convert();
    } catch (error) {
      if (error instanceof UsageError && error.message.trim() !== "") seeds.refused++;
      else seeds.failures.push(`${name}: ${(error as Error)?.stack ?? error}`);
      continue;
    }
    for (const f of files) {
      const path = `${seeds.dir}/${seed}/${f.path}`;
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      if (typeof f.text === "string") await Deno.writeTextFile(path, f.text);
      else await Deno.writeFile(path, f.text);
      if (f.path.endsWith(".yaml")) seeds.written++;
    }
  }
  return seeds;
}
