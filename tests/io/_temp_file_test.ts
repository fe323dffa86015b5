/** A temporary file becomes its path whole, keeping the mode given, or leaves nothing behind. */
import assert from "node:assert/strict";
import { TempFile } from "../../lib/io/_temp_file.ts";
import { names, tempDir } from "../support/fs.ts";

Deno.test("commit renames over the path with the mode given; discard leaves nothing", async () => {
  const dir = await tempDir();
  try {
    await Deno.writeTextFile(`${dir}/r.json`, "old");
    const temp = await TempFile.create(`${dir}/r.json`, 0o100640);
    await temp.file.write(new TextEncoder().encode("new"));
    assert.equal(await Deno.readTextFile(`${dir}/r.json`), "old", "untouched until commit");
    await temp.commit();
    assert.equal(await Deno.readTextFile(`${dir}/r.json`), "new");
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(`${dir}/r.json`)).mode! & 0o777, 0o640);
    }
    const dropped = await TempFile.create(`${dir}/new/deep/x.json`);
    await dropped.discard();
    await dropped.discard(); // Twice is harmless.
    assert.deepEqual(await names(dir), ["new", "r.json"]);
    assert.deepEqual(await names(`${dir}/new/deep`), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a commit that cannot rename removes the temporary file and throws", async () => {
  const dir = await tempDir();
  try {
    const temp = await TempFile.create(`${dir}/gone/r.json`);
    await Deno.remove(`${dir}/gone`, { recursive: true }).catch(() => {});
    await Deno.mkdir(`${dir}/gone`);
    await Deno.mkdir(`${dir}/gone/r.json`);
    await Deno.writeTextFile(`${dir}/gone/r.json/inside`, "");
    await assert.rejects(() => temp.commit());
    assert.deepEqual(await names(`${dir}/gone`), ["r.json"], "no temporary file left");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
