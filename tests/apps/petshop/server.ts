/**
 * A server implementing tests/apps/petshop/openapi.yaml, under its base
 * path /api/v1: pets behind an API key, orders behind a bearer token, a
 * health check open to all. It checks what the document requires (the
 * credential, the species query parameter, the X-Request-Id header, a
 * form body with quantity 2 to 5, a pet's name and species) and answers
 * 401, 404 or 422 otherwise, so a converted suite passes only when it
 * sends what the document says. It keeps its data in memory and says what
 * is left, so a test sees that the suite deleted what it made.
 */

/** The credentials the server accepts. */
export const PETSHOP_KEY = "key-7c1f0e9a";
export const PETSHOP_TOKEN = "tok-3b8d62aa";

/** A running Pet Shop. */
export interface PetShop {
  base: string;
  /** Every request, `METHOD /path`, in order. */
  seen: string[];
  /** Pets and orders not deleted. */
  left(): number;
  close(): Promise<void>;
}

interface Pet {
  id: string;
  name: string;
  species: string;
  category: { name: string; children: unknown[] };
}

const json = (status: number, body: unknown) => Response.json(body, { status });
const error = (status: number, message: string) => json(status, { message });

/** Starts the server on 127.0.0.1 with an ephemeral port. */
export function startPetShop(): PetShop {
  const pets = new Map<string, Pet>();
  const orders = new Map<string, Record<string, unknown>>();
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname}`);
    const path = url.pathname.replace(/^\/api\/v1/, "");
    if (path === "/health" && req.method === "GET") return json(200, { status: "ok" });
    if (path.startsWith("/pets")) {
      if (req.headers.get("x-api-key") !== PETSHOP_KEY) return error(401, "bad API key");
      return await petRoute(req, url, path, pets);
    }
    if (path.startsWith("/orders")) {
      if (req.headers.get("authorization") !== `Bearer ${PETSHOP_TOKEN}`) {
        return error(401, "bad token");
      }
      return await orderRoute(req, path, orders);
    }
    return error(404, `no route ${req.method} ${url.pathname}`);
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    left: () => pets.size + orders.size,
    close: () => server.shutdown(),
  };
}

async function petRoute(
  req: Request,
  url: URL,
  path: string,
  pets: Map<string, Pet>,
): Promise<Response> {
  if (path === "/pets" && req.method === "GET") {
    const species = url.searchParams.get("species");
    if (species !== "dog" && species !== "cat") return error(422, "species must be dog or cat");
    return json(200, [...pets.values()].filter((p) => p.species === species));
  }
  if (path === "/pets" && req.method === "POST") {
    const body = await req.json().catch(() => undefined);
    const bad = badPet(body);
    if (bad) return error(422, bad);
    const pet = {
      id: crypto.randomUUID(),
      name: body.name,
      species: body.species,
      category: { name: "all", children: [{ name: "dogs", children: [] }] },
    };
    pets.set(pet.id, pet);
    return json(201, pet);
  }
  const pet = pets.get(path.slice("/pets/".length));
  if (!pet) return error(404, "no such pet");
  if (req.method === "GET") return json(200, pet);
  if (req.method === "PUT") {
    const body = await req.json().catch(() => undefined);
    const bad = badPet(body);
    if (bad) return error(422, bad);
    Object.assign(pet, { name: body.name, species: body.species });
    return json(200, pet);
  }
  if (req.method === "DELETE") {
    pets.delete(pet.id);
    return new Response(null, { status: 204 });
  }
  return error(405, "method not allowed");
}

function badPet(body: Record<string, unknown> | undefined): string | undefined {
  if (typeof body?.name !== "string" || body.name === "") return "name is required";
  if (body.species !== "dog" && body.species !== "cat") return "species must be dog or cat";
  return undefined;
}

async function orderRoute(
  req: Request,
  path: string,
  orders: Map<string, Record<string, unknown>>,
): Promise<Response> {
  if (path === "/orders" && req.method === "POST") {
    if (!req.headers.get("content-type")?.startsWith("application/x-www-form-urlencoded")) {
      return error(415, "send a form");
    }
    const form = new URLSearchParams(await req.text());
    const quantity = Number(form.get("quantity"));
    if (!form.get("petName") || !(quantity >= 2 && quantity <= 5)) {
      return error(422, "petName and a quantity of 2 to 5 are required");
    }
    const order = {
      id: crypto.randomUUID(),
      petName: form.get("petName"),
      quantity,
      status: "placed",
    };
    orders.set(order.id, order);
    return json(201, order);
  }
  if (req.headers.get("x-request-id") === null) return error(422, "X-Request-Id is required");
  const order = orders.get(path.slice("/orders/".length));
  if (!order) return error(404, "no such order");
  if (req.method === "GET") return json(200, order);
  if (req.method === "DELETE") {
    orders.delete(String(order.id));
    return new Response(null, { status: 204 });
  }
  return error(405, "method not allowed");
}
