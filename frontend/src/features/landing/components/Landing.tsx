import { Link } from 'react-router-dom';
import { ButtonLink } from '@/components/Button';
import { Icon, type IconName } from '@/components/Icon';
import type { DeviceInfo } from '@/lib/device';

const ROLES = [
  {
    icon: 'book' as IconName,
    title: 'Readers',
    text: 'Tell Quinn what you are in the mood for and get books that fit. Try before you buy, then read epub, pdf and txt right here.',
    to: '/reader',
    cta: 'Start reading',
  },
  {
    icon: 'pen' as IconName,
    title: 'Writers',
    text: 'Upload a manuscript and get summaries, tags, quality scores and an AI check in minutes. Price it with AI pricing and publish.',
    to: '/user/write',
    cta: 'Start writing',
  },
  {
    icon: 'landmark' as IconName,
    title: 'Publishers',
    text: 'Discover promising writers, curate your shelf and decide what goes on sale, book by book.',
    to: '/publisher',
    cta: 'Open the desk',
  },
];

const STEPS = [
  { n: '1', title: 'Create your account', text: 'Sign up with your e-mail or your Ethereum wallet.' },
  { n: '2', title: 'Pick your role', text: 'Reader by default; add writer or publisher whenever you like.' },
  { n: '3', title: 'Read, write, publish', text: 'Everything lives in one library that follows you to your phone.' },
];

export function MobileBanner({ device, role }: { device: DeviceInfo; role: string }) {
  if (device.deviceType !== 'mobile') return null;
  const h5Role = ['reader', 'writer', 'publisher'].includes(role) ? role : 'reader';
  return (
    <Link to={`/h5/${h5Role}/profile`} className="mobile-banner" data-testid="h5-link">
      <Icon name="phone" size={22} />
      <span>
        <strong>On your phone?</strong> Open the mobile version of Quire
      </span>
      <span aria-hidden className="mobile-banner-arrow">
        →
      </span>
    </Link>
  );
}

export function Landing({ loggedIn, username }: { loggedIn: boolean; username?: string }) {
  return (
    <div className="landing">
      <section className="hero">
        <div className="hero-copy">
          <p className="eyebrow">Read · Write · Publish</p>
          <h1>
            Your next favourite book
            <br />
            <span className="accent">is one conversation away.</span>
          </h1>
          <p className="hero-text">
            Quire is a home for readers, writers and publishers. Chat with Quinn, our book assistant, to find stories
            you will love; upload your own manuscript and watch it become a book.
          </p>
          <div className="hero-actions">
            {loggedIn ? (
              <>
                <ButtonLink to="/reader" size="lg">
                  Continue, {username || 'reader'}
                </ButtonLink>
                <ButtonLink to="/user/profile" size="lg" variant="secondary">
                  Your profile
                </ButtonLink>
              </>
            ) : (
              <>
                <ButtonLink to="/register" size="lg">
                  Create a free account
                </ButtonLink>
                <ButtonLink to="/login" size="lg" variant="secondary">
                  Log in
                </ButtonLink>
              </>
            )}
          </div>
        </div>
        <div className="hero-art" aria-hidden>
          <div className="chat-preview">
            <div className="bubble bubble-user">Something cosy and mysterious for a rainy weekend?</div>
            <div className="bubble bubble-bot">
              I’m Quinn! I found 4 books for you. Start with a village mystery told through letters…
            </div>
            <div className="book-row">
              <span className="book-spine spine-1" />
              <span className="book-spine spine-2" />
              <span className="book-spine spine-3" />
              <span className="book-spine spine-4" />
            </div>
          </div>
        </div>
      </section>

      <section className="role-grid" aria-label="Who Quire is for">
        {ROLES.map((r) => (
          <article key={r.title} className="role-card">
            <div className="role-icon">
              <Icon name={r.icon} size={22} />
            </div>
            <h2>{r.title}</h2>
            <p>{r.text}</p>
            <Link to={r.to} className="role-link">
              {r.cta} →
            </Link>
          </article>
        ))}
      </section>

      <section className="how" aria-labelledby="how-title">
        <h2 id="how-title">How it works</h2>
        <ol className="how-steps">
          {STEPS.map((s) => (
            <li key={s.n}>
              <span className="how-n">{s.n}</span>
              <div>
                <h3>{s.title}</h3>
                <p>{s.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
