import { useLocation, useNavigate } from 'react-router-dom';
import { Icon } from '@/components/Icon';
import { loginPathWithRedirect } from '@/lib/redirect';
import { useToggleFavourite } from '../hooks';

export interface FavouriteButtonProps {
  bookId: string;
  favourite: boolean;
  loggedIn: boolean;
  title?: string;
}

/** A heart that adds the book to (or removes it from) the favourites. */
export function FavouriteButton({ bookId, favourite, loggedIn, title }: FavouriteButtonProps) {
  const toggle = useToggleFavourite();
  const navigate = useNavigate();
  const location = useLocation();
  const on = toggle.isPending ? toggle.variables.favourite : favourite;
  return (
    <button
      type="button"
      className={`fav-button ${on ? 'fav-on' : ''}`}
      aria-pressed={on}
      aria-label={on ? `Remove ${title ?? 'book'} from favourites` : `Add ${title ?? 'book'} to favourites`}
      title={on ? 'In your favourites' : 'Add to favourites'}
      disabled={toggle.isPending}
      onClick={() => {
        if (!loggedIn) navigate(loginPathWithRedirect(location.pathname + location.search));
        else toggle.mutate({ bookId, favourite: !on });
      }}
    >
      <Icon name="heart" size={18} />
      <span>{on ? 'Favourite' : 'Add to favourites'}</span>
    </button>
  );
}
