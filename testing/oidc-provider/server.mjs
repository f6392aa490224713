// A real OpenID Connect provider (oidc-provider) on loopback for Quire's sign-in tests.
//
// Env: PORT (0 picks a free one), CLIENT_ID, CLIENT_SECRET, REDIRECT_URIS (comma list),
// and DEFAULT_LOGIN_HINT (optional: who signs in when the request names no one, for a
// browser test that cannot add `login_hint` to the URL the app sends it to).
// Prints `ready <issuer>` on stdout once it listens.
//
// There is no login page: the account is the one the authorization request names with
// `login_hint` (an e-mail address), and consent is granted at once, so a test can follow
// the redirects with a plain HTTP client. What the address starts with decides what the
// provider does with it:
//   unverified...  its e-mail is not verified (email_verified false)
//   tampered...    the token endpoint answers an ID token whose payload was changed after
//                  signing (its `sub` names another account), as an attacker would
//   anything else  a verified e-mail; the name claim is made of the part before the @.
import crypto from 'node:crypto';
import http from 'node:http';

import Provider from 'oidc-provider';

function required(name) {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is required`);
    process.exit(2);
  }
  return value;
}

const port = Number(process.env.PORT ?? 0);
const defaultHint = process.env.DEFAULT_LOGIN_HINT ?? '';
const client = {
  client_id: required('CLIENT_ID'),
  client_secret: required('CLIENT_SECRET'),
  redirect_uris: required('REDIRECT_URIS').split(',').map((u) => u.trim()).filter(Boolean),
  grant_types: ['authorization_code'],
  response_types: ['code'],
  token_endpoint_auth_method: 'client_secret_basic',
};

/** A stable subject per address that is not the address itself, as real providers do. */
function subjectOf(email) {
  return crypto.createHash('sha256').update(email).digest('hex').slice(0, 24);
}

/** "ada.lovelace@x" -> "Ada Lovelace". */
function nameOf(email) {
  return email
    .split('@')[0]
    .split(/[._-]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
}

/** Every account a test signed in as, by subject. */
const accounts = new Map();

function account(email) {
  const sub = subjectOf(email);
  const found = { sub, email, verified: !email.startsWith('unverified'), name: nameOf(email) };
  accounts.set(sub, found);
  return found;
}

// A fresh signing key per run: what the relying party trusts is what the JWKS says.
const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = {
  ...privateKey.export({ format: 'jwk' }),
  kid: crypto.randomUUID(),
  alg: 'RS256',
  use: 'sig',
};

const issuerFor = (p) => `http://127.0.0.1:${p}`;

function build(issuer) {
  const provider = new Provider(issuer, {
    clients: [client],
    jwks: { keys: [signingKey] },
    cookies: { keys: [crypto.randomBytes(32).toString('hex')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
    },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const found = accounts.get(sub);
      if (!found) {
        return undefined;
      }
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            email: found.email,
            email_verified: found.verified,
            name: found.name,
          };
        },
      };
    },
  });

  // The interactions, finished without a page: log in as `login_hint`, then consent to
  // what the client asked for.
  provider.use(async (ctx, next) => {
    if (ctx.method !== 'GET' || !/^\/interaction\/[^/]+$/.test(ctx.path)) {
      return next();
    }
    const interaction = await provider.interactionDetails(ctx.req, ctx.res);
    const { prompt, params } = interaction;
    let result;
    if (prompt.name === 'login') {
      const hint = String(params.login_hint || defaultHint).trim().toLowerCase();
      result = hint
        ? { login: { accountId: account(hint).sub } }
        : { error: 'login_required', error_description: 'no login_hint to sign in as' };
    } else if (prompt.name === 'consent') {
      const grant = interaction.grantId
        ? await provider.Grant.find(interaction.grantId)
        : new provider.Grant({
            accountId: interaction.session.accountId,
            clientId: params.client_id,
          });
      const { details } = prompt;
      if (details.missingOIDCScope) {
        grant.addOIDCScope(details.missingOIDCScope.join(' '));
      }
      if (details.missingOIDCClaims) {
        grant.addOIDCClaims(details.missingOIDCClaims);
      }
      result = { consent: { grantId: await grant.save() } };
    } else {
      result = { error: 'access_denied', error_description: `unhandled prompt ${prompt.name}` };
    }
    const to = await provider.interactionResult(ctx.req, ctx.res, result, {
      mergeWithLastSubmission: false,
    });
    ctx.status = 303;
    ctx.redirect(to);
  });

  // The tampered ID token: signed by the provider, then changed on its way out.
  provider.use(async (ctx, next) => {
    await next();
    const idToken = ctx.method === 'POST' && ctx.path === '/token' && ctx.body?.id_token;
    if (typeof idToken !== 'string') {
      return;
    }
    const [header, payload, signature] = idToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    if (!accounts.get(claims.sub)?.email.startsWith('tampered')) {
      return;
    }
    claims.sub = subjectOf('victim@example.org');
    const changed = Buffer.from(JSON.stringify(claims)).toString('base64url');
    ctx.body = { ...ctx.body, id_token: `${header}.${changed}.${signature}` };
  });

  return provider;
}

// The issuer names the port: listen first (port 0 picks a free one), then build the
// provider for the port that was bound.
const server = http.createServer();
server.listen(port, '127.0.0.1', () => {
  const issuer = issuerFor(server.address().port);
  const provider = build(issuer);
  provider.on('server_error', (_ctx, err) => console.error('server_error', err));
  server.on('request', provider.callback());
  console.log(`ready ${issuer}`);
});
