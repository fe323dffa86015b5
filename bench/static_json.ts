/**
 * A server for bench/workers.ts whose answers cost the client far more than
 * the server: every request gets the same prepared JSON body (1,500 items,
 * about 86 KB), so the client parses and checks a large body while the
 * server only copies bytes. Prints one line once it listens. Run by the
 * bench: `deno run --allow-net bench/static_json.ts --port N`.
 */
const port = Number(Deno.args[Deno.args.indexOf("--port") + 1]);
const items = Array.from({ length: 1500 }, (_, i) => ({
  id: i,
  name: `item-${i}`,
  price: i % 100,
  tags: ["a", "b"],
}));
const body = new TextEncoder().encode(JSON.stringify({ items }));
Deno.serve({
  hostname: "127.0.0.1",
  port,
  onListen: () => console.log(`listening on ${port}, ${body.length} bytes per answer`),
}, () => new Response(body, { headers: { "content-type": "application/json" } }));
