// An SMTP sink the stack sends its mail to during e2e runs. It accepts everything
// (no TLS, any or no AUTH) and keeps parsed messages in memory.
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

export async function startSmtpSink({ port, host = '127.0.0.1' }) {
  const messages = [];
  const waiters = new Set();

  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    banner: 'quire e2e sink',
    size: 5 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username || 'anyone' });
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const message = {
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: mail.subject || '',
            text: mail.text || '',
            html: typeof mail.html === 'string' ? mail.html : '',
            receivedAt: Date.now(),
          };
          messages.push(message);
          for (const w of [...waiters]) w(message);
          callback();
        })
        .catch(callback);
    },
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => console.error('smtp sink error:', err.message));

  /** The first message to `address` received after `since` (ms epoch). */
  function waitForMail(address, { timeoutMs = 30_000, since = 0 } = {}) {
    const want = address.toLowerCase();
    const matches = (m) => m.receivedAt >= since && m.to.includes(want);
    const found = messages.find(matches);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(onMessage);
        reject(new Error(`no mail for ${address} within ${timeoutMs} ms (sink on ${host}:${port} got ${messages.length} message(s))`));
      }, timeoutMs);
      function onMessage(m) {
        if (!matches(m)) return;
        clearTimeout(timer);
        waiters.delete(onMessage);
        resolve(m);
      }
      waiters.add(onMessage);
    });
  }

  return {
    messages,
    waitForMail,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The 6-digit verification code in a mail (text first, then html, then subject). */
export function extractCode(message) {
  const stripped = message.html.replace(/<[^>]+>/g, ' ');
  for (const source of [message.text, stripped, message.subject]) {
    const match = /\b(\d{6})\b/.exec(source || '');
    if (match) return match[1];
  }
  throw new Error(`no 6-digit code in mail "${message.subject}": ${message.text.slice(0, 200)}`);
}
