/**
 * A server's seeded state (a database every instance copies) made once into
 * the tests' cache: a real server's install and first-run migrations take a
 * minute, an instance's copy of their result a moment.
 *
 * @module
 */
import { awaitLock, cacheRoot } from "./servers.ts";

/** What is seeded: `name` (in the temporary folder's name and the time it says), at `seed`. */
export interface Seed {
  name: string;
  /** The file or folder made, in the cache (`cacheRoot`). */
  seed: string;
  /** How long a lock left by a seeding that died is waited on before it is taken over. */
  staleMs: number;
}

/**
 * Makes `seed` in the cache unless it is there: `make` fills `part` (beside
 * `seed`, renamed to it once whole) from a temporary folder `work`, removed
 * after. A lock (`<seed's folder>.lock`) makes parallel test files wait, for
 * 3 minutes at most; the time the seeding took goes to stderr.
 *
 * @example
 * ```ts
 * import { seedOnce } from "./seed_once.ts";
 * import { cacheRoot } from "./servers.ts";
 * const seed = `${cacheRoot}/example-seed-${crypto.randomUUID()}/data.txt`;
 * let made = 0;
 * const make = async (_work: string, part: string) => void await Deno.writeTextFile(part, `${++made}`);
 * await seedOnce({ name: "example", seed, staleMs: 1000 }, make);
 * await seedOnce({ name: "example", seed, staleMs: 1000 }, make);
 * if (made !== 1 || Deno.readTextFileSync(seed) !== "1") throw new Error();
 * Deno.removeSync(seed.slice(0, seed.lastIndexOf("/")), { recursive: true });
 * ```
 */
export async function seedOnce(
  { name, seed, staleMs }: Seed,
  make: (work: string, part: string) => Promise<void>,
): Promise<void> {
  const folder = seed.slice(0, seed.lastIndexOf("/"));
  if (await exists(seed)) return;
  await Deno.mkdir(cacheRoot, { recursive: true });
  await awaitLock(`${folder}.lock`, staleMs, 180_000);
  const work = await Deno.makeTempDir({ prefix: `flowrun-${name}-seed-` });
  try {
    // Another file may have made it while this one waited for the lock.
    if (await exists(seed)) return;
    const started = performance.now();
    await Deno.mkdir(folder, { recursive: true });
    await make(work, `${seed}.part`);
    await Deno.rename(`${seed}.part`, seed);
    console.error(`${name}: seeded database made in ${Math.round(performance.now() - started)} ms`);
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
    await Deno.remove(`${folder}.lock`).catch(() => {});
  }
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}
