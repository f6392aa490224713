// The frame of the four pricing screens of one manuscript's book: the manuscript's steps,
// the page title, the pricing tabs; and the catalog's update_book, which sets the price.
import type { ReactNode } from 'react';
import { PageHeader } from '@/components/Card';
import { useUpdateBook } from '@/features/catalog';
import { ManuscriptNav } from '@/features/manuscripts';
import { PricingNav, type PricingScreen } from '@/features/pricing';
import type { ManuscriptContext } from '../../with-manuscript';

export interface PricingFrameProps {
  ctx: ManuscriptContext;
  screen: PricingScreen;
  title: string;
  subtitle: string;
  children: ReactNode;
}

export function PricingFrame({ ctx, screen, title, subtitle, children }: PricingFrameProps) {
  const { detail } = ctx;
  return (
    <div className="page">
      <ManuscriptNav id={detail.manuscript_id} bookId={detail.book_id} current="price" />
      <PageHeader eyebrow={ctx.book?.title || detail.title || 'Manuscript'} title={title} subtitle={subtitle} />
      <PricingNav manuscriptId={detail.manuscript_id} bookId={detail.book_id} current={screen} />
      {children}
    </div>
  );
}

/**
 * Sets the book's price through update_book; resolves when saved, rejects with the refusal.
 * `inPlace`: the screen shows a refusal itself, so no toast repeats it.
 */
export function useSetPrice({ userId, detail }: ManuscriptContext, { inPlace = false } = {}) {
  const save = useUpdateBook(userId, detail.book_id, { inPlace });
  return (price: number) => save.mutateAsync({ price });
}
