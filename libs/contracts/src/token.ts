import { z } from 'zod';

/** SPEC Limits: token validity, and the token request body limit. */
export const TOKEN_TTL_SECONDS = 3600;
export const TOKEN_BODY_LIMIT = 4096;
export const GRANT_TYPE = 'client_credentials';

/**
 * Why auth refused a token request: an RPC reply header of the 401 (never an HTTP header; the
 * integrator always sees the same `invalid_client`). The gateway's failure limit counts only
 * `wrong_secret` (SPEC Limits: a wrong secret of an existing credential).
 */
export const TOKEN_REFUSAL_HEADER = 'refusal';
export type TokenRefusal = 'wrong_secret' | 'unknown_client' | 'inactive';

export interface TokenIssueRequest {
  clientId: string;
  clientSecret: string;
}

/** Claims of the access token (HS256). `iat`/`exp` in seconds. */
export interface TokenClaims {
  merchant_id: string;
  client_id: string;
  /** scopes separated by one space */
  scope: string;
  iat: number;
  exp: number;
}

/** SPEC "Token request" (documentation of the public route; the route parses by hand). */
export const tokenRequestSchema = z.object({
  grant_type: z.string().describe('must be client_credentials'),
  client_id: z.string().describe('odc_ followed by 24 hexadecimal characters').optional(),
  client_secret: z.string().optional(),
});

/** SPEC "Token response": every value twice, snake_case and camelCase. */
export const tokenResponseSchema = z
  .object({
    access_token: z.string(),
    accessToken: z.string(),
    token_type: z.literal('bearer'),
    tokenType: z.literal('bearer'),
    expires_in: z.number().int(),
    expiresIn: z.number().int(),
    scope: z.string(),
  })
  .meta({
    id: 'TokenResponse',
    example: {
      access_token: 'eyJhbGciOiJIUzI1NiJ9.e30.x',
      accessToken: 'eyJhbGciOiJIUzI1NiJ9.e30.x',
      token_type: 'bearer',
      tokenType: 'bearer',
      expires_in: 3600,
      expiresIn: 3600,
      scope: 'orders:read orders:write',
    },
  });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
