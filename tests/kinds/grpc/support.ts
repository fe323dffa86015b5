/**
 * What the gRPC step's tests share: a temporary folder holding the
 * fixtures' `.proto` files and a flow written into it.
 */
const PROTOS = new URL("../../fixtures/grpc/protos/", import.meta.url);

/** A temporary folder with `protos/` copied in and `flow.yaml` holding `flow`; its path. */
export async function flowDir(flow: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-grpc-" });
  await Deno.mkdir(`${dir}/protos`);
  for (const name of ["route_guide.proto", "health.proto"]) {
    await Deno.copyFile(new URL(name, PROTOS), `${dir}/protos/${name}`);
  }
  await Deno.writeTextFile(`${dir}/flow.yaml`, flow);
  return dir;
}
