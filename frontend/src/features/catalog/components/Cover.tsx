import { useEffect, useState } from 'react';

// A stable hue per title so a missing cover still tells books apart.
function hue(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) % 360;
  return h;
}

export interface CoverProps {
  src?: string | null;
  title: string;
  author?: string;
  /** Rendered width in px; the height follows the 2:3 book ratio. */
  width?: number;
  className?: string;
  /** Decorative covers (next to a visible title) get an empty alt. */
  decorative?: boolean;
}

/** A book cover; when the image is missing or fails, a drawn cover with the title. */
export function Cover({ src, title, author, width, className, decorative }: CoverProps) {
  const [failed, setFailed] = useState(!src);
  useEffect(() => setFailed(!src), [src]);
  const style = width ? { width, height: Math.round(width * 1.5) } : undefined;
  const alt = decorative ? '' : `Cover of ${title}${author ? ` by ${author}` : ''}`;
  if (failed) {
    const h = hue(title);
    return (
      <div
        className={`cover cover-fallback ${className ?? ''}`}
        style={{ ...style, background: `linear-gradient(160deg, hsl(${h} 45% 34%), hsl(${(h + 40) % 360} 50% 18%))` }}
        role={decorative ? undefined : 'img'}
        aria-label={decorative ? undefined : alt}
        aria-hidden={decorative || undefined}
        data-testid="cover-fallback"
      >
        {/* thumbnails are too small to hold readable text; the colour tells them apart */}
        {width !== undefined && width < 60 ? null : (
          <>
            <span className="cover-fallback-title">{title}</span>
            {author ? <span className="cover-fallback-author">{author}</span> : null}
          </>
        )}
      </div>
    );
  }
  return (
    <img
      className={`cover ${className ?? ''}`}
      style={style}
      src={src ?? undefined}
      alt={alt}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
