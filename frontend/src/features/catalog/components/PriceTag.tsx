import { formatPrice } from '@/lib/money';

export interface PriceTagProps {
  price: number | string | null | undefined;
  /** The viewer already owns it (bought, or writer/publisher): shown instead of the price. */
  owned?: boolean;
  size?: 'sm' | 'md' | 'lg';
}

export function PriceTag({ price, owned, size = 'md' }: PriceTagProps) {
  if (owned) return <span className={`price-tag price-owned price-${size}`}>Owned</span>;
  const text = formatPrice(price);
  return (
    <span className={`price-tag price-${size} ${text === 'Free' ? 'price-free' : ''}`} data-testid="price">
      {text}
    </span>
  );
}
