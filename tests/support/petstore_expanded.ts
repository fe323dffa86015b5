/**
 * A server implementing the OpenAPI Initiative's petstore-expanded example
 * (as npm `@readme/oas-examples` 8.2.2 holds it, `3.0/yaml/petstore-expanded.yaml`,
 * read at test time: tests/support/openapi_corpus.ts) under its server's
 * base path /api: pets in memory, `addPet` requiring a name, ids that are
 * integers, 404 for a pet that is not there.
 */

/** A running petstore. */
export interface Petstore {
  base: string;
  seen: string[];
  /** Pets not deleted. */
  left(): number;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 with an ephemeral port. */
export function startPetstoreExpanded(): Petstore {
  const pets = new Map<number, { id: number; name: string; tag?: string }>();
  const seen: string[] = [];
  let next = 1;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname}`);
    const error = (code: number, message: string) =>
      Response.json({ code, message }, { status: code });
    if (url.pathname === "/api/pets" && req.method === "GET") {
      return Response.json([...pets.values()]);
    }
    if (url.pathname === "/api/pets" && req.method === "POST") {
      const body = await req.json().catch(() => undefined);
      if (typeof body?.name !== "string") return error(422, "name is required");
      const pet = { id: next++, name: body.name, ...(body.tag ? { tag: body.tag } : {}) };
      pets.set(pet.id, pet);
      return Response.json(pet);
    }
    const match = url.pathname.match(/^\/api\/pets\/([0-9]+)$/);
    const pet = match ? pets.get(Number(match[1])) : undefined;
    if (!pet) return error(404, `no ${url.pathname}`);
    if (req.method === "GET") return Response.json(pet);
    if (req.method === "DELETE") {
      pets.delete(pet.id);
      return new Response(null, { status: 204 });
    }
    return error(405, "method not allowed");
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    left: () => pets.size,
    close: () => server.shutdown(),
  };
}
