/**
 * The shape of one operation of an OpenAPI document as the converter reads it: its own file, so
 * the modules `operations.ts` calls while reading them (`tag_create.ts`) can name it without an
 * import cycle.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";

/** One operation of the document. */
export interface OpenApiOperation {
  /** Upper case. */
  method: string;
  template: string;
  node: Node;
  /** Every parameter, `$ref`s followed. */
  params: Node[];
  /** The first tag, or undefined. */
  tag?: string;
  /**
   * The document's path, where `template` writes a parameter allowed one value as that value
   * (`fixed_segment.ts`); read it with `documentPath`.
   */
  path?: string;
  /** A name for its step before uniqueness: `list_pets`, `get_pets_pet_id`. */
  name: string;
  /** Its place in the document. */
  index: number;
  /**
   * What it does, by the document's paths: creates, acts on the whole API, or neither; in an
   * RPC-shaped document by its name (`rpc_verbs.ts`), which may also say it deletes.
   */
  role?: "create" | "whole" | "delete";
  /**
   * A create whose path is a collection itself though its last word is a create verb
   * (`POST /document-store/store` beside `/document-store/store/{id}`): it makes items there, not
   * of the noun before the word (`verb_segments.ts`'s `createdIn`).
   */
  ownPath?: true;
  /**
   * Its JSON body lists names of a collection's items (`listed_items.ts`):
   * it runs among the deletes, as one of this depth (just before the items' own delete).
   */
  lists?: number;
  /** It makes the items of its tag, whose paths name no collection (`tag_create.ts`). */
  makesTag?: true;
  /** A PATCH naming no member: the PUT of its tag's items whose schema its body is made from. */
  updatesLike?: OpenApiOperation;
}
