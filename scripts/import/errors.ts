// The importer's one refusal: a sentence naming the layer and the request, and a non-zero exit.

export class ImportError extends Error {
  override name = "ImportError";
}

/** `Layer "Lot" (cadastre)`: how every refusal names its layer. */
export const layerLabel = (serviceLayer: string, service: string) => `Layer "${serviceLayer}" (${service})`;
