// The AI SDK's default provider (Vercel's AI Gateway, with its OIDC client) answers only models named
// by a string. This Worker always passes a model instance (src/ai/models.ts), so the build aliases
// the package to this stand-in: about 22 KiB of gzip off the bundle. The names are those `ai` imports.

export class GatewayError extends Error {
  static isInstance(error: unknown): error is GatewayError {
    return error instanceof GatewayError;
  }
}

export class GatewayAuthenticationError extends GatewayError {}

function notBundled(): never {
  throw new Error("The AI Gateway provider is not bundled in this Worker: pass a model instance");
}

export const gateway = new Proxy(notBundled, { get: () => notBundled });

export function createGateway(): typeof gateway {
  return gateway;
}
