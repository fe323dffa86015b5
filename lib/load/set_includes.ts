/**
 * The include stage of loading a flow set: the files a loaded flow includes
 * join the set, each listed once with its problems however many flows
 * include it.
 *
 * @module
 */
import type { FlowFiles } from "./expand_includes.ts";
import type { SetLoad } from "./set_types.ts";

/**
 * Adds the files `file` includes (through `files`, which loaded it) to the
 * set: the problems of each not listed yet, and the bytes of each that is
 * not a selected flow file itself. `file` counts as listed from now on.
 *
 * @example
 * ```ts
 * import { addIncludes } from "./set_includes.ts";
 * import { emptySet } from "./set_types.ts";
 * import { FlowFiles } from "./expand_includes.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/part.yaml`, "name: part\nsteps:\n  - name: p\n    request: {url: http://x.test}\n");
 * const text = "name: main\nsteps:\n  - name: m\n    include: part.yaml\n";
 * const files = new FlowFiles({});
 * files.load(`${dir}/main.yaml`, text);
 * const set = emptySet();
 * addIncludes(set, files, `${dir}/main.yaml`);
 * await Deno.remove(dir, { recursive: true });
 * if (set.result.included.join() !== `${dir}/part.yaml`) throw new Error(set.result.included.join());
 * if (!set.reported.has(`${dir}/main.yaml`)) throw new Error();
 * ```
 */
export function addIncludes(set: SetLoad, files: FlowFiles, file: string): void {
  const { result, reported } = set;
  reported.add(file);
  for (const f of files.closure(file)) {
    if (reported.has(f)) continue;
    reported.add(f);
    const inc = files.included.get(f);
    const problems = inc?.problems ?? files.result(f)?.problems ?? [];
    result.problems.push(...problems);
    if (inc && !result.files.includes(f)) {
      result.included.push(f);
      result.bytes.set(f, inc.bytes);
    }
  }
}
