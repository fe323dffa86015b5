/** Where a write really goes: through symlinks, to streams, devices and files. */
import assert from "node:assert/strict";
import { resolveTarget, writeAllTo } from "../../lib/io/_target.ts";
import { isLinux, tempDir } from "../support/fs.ts";

Deno.test("symlinks are followed, relative ones from their own folder", async () => {
  const dir = await tempDir();
  try {
    await Deno.mkdir(`${dir}/real`);
    await Deno.writeTextFile(`${dir}/real/r.json`, "");
    if (Deno.build.os !== "windows") await Deno.chmod(`${dir}/real/r.json`, 0o600);
    await Deno.symlink("real/r.json", `${dir}/rel.json`);
    await Deno.symlink(`${dir}/rel.json`, `${dir}/abs.json`);
    const target = await resolveTarget(`${dir}/abs.json`);
    assert.equal(target.kind, "file");
    assert.equal(target.path, `${dir}/real/r.json`);
    if (target.kind === "file" && Deno.build.os !== "windows") {
      assert.equal(target.mode! & 0o777, 0o600);
    }
    assert.deepEqual(await resolveTarget(`${dir}/missing.json`), {
      kind: "file",
      path: `${dir}/missing.json`,
    });
    assert.deepEqual(await resolveTarget(dir), { kind: "file", path: dir, isDirectory: true });
    await Deno.symlink(`${dir}/b`, `${dir}/a`);
    await Deno.symlink(`${dir}/a`, `${dir}/b`);
    await assert.rejects(
      () => resolveTarget(`${dir}/a`),
      (e: unknown) => (e as { code?: string }).code === "ELOOP",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "standard streams by name, /dev/null discards, other devices are written through",
  ignore: !isLinux,
  async fn() {
    const out = await resolveTarget("/dev/stdout");
    assert.equal(out.kind === "stream" && out.sink, Deno.stdout);
    const err = await resolveTarget("/proc/self/fd/2");
    assert.equal(err.kind === "stream" && err.sink, Deno.stderr);
    assert.deepEqual(await resolveTarget("/dev/null"), {
      kind: "stream",
      path: "/dev/null",
      sink: null,
    });
    assert.deepEqual(await resolveTarget("/dev/full"), { kind: "special", path: "/dev/full" });
  },
});

Deno.test("writeAllTo goes on until every byte is taken", async () => {
  const taken: number[] = [];
  const twoAtATime = {
    write: (p: Uint8Array) => {
      taken.push(...p.subarray(0, 2));
      return Promise.resolve(Math.min(2, p.length));
    },
  };
  await writeAllTo(twoAtATime, new Uint8Array([1, 2, 3, 4, 5]));
  assert.deepEqual(taken, [1, 2, 3, 4, 5]);
});
