// The catalog area: the shop, book pages, libraries, publishers' shelves and the admin's
// content tools. Routes compose these; other features never import them.
import './styles/base.css';
import './styles/shop.css';
import './styles/book.css';
import './styles/shelf.css';
import './styles/admin.css';

export { AdminBooksTable } from './components/AdminBooksTable';
export { BookCard, bookIdOf, type BookCardProps, type CardBook } from './components/BookCard';
export { BookDetail, type BookDetailProps } from './components/BookDetail';
export { BookEditForm } from './components/BookEditForm';
export { BookGrid, type BookGridProps } from './components/BookGrid';
export { BookSection } from './components/BookSection';
export { Cover, type CoverProps } from './components/Cover';
export { FavouriteButton } from './components/FavouriteButton';
export { GenreChips, type GenreChip } from './components/GenreChips';
export { LibraryShelves } from './components/LibraryShelves';
export { MyUploads } from './components/MyUploads';
export { PriceTag } from './components/PriceTag';
export { PublisherDesk } from './components/PublisherDesk';
export { PublisherList } from './components/PublisherList';
export { PublishSwitch } from './components/PublishSwitch';
export { SearchBox, SEARCH_DEBOUNCE_MS, type SearchBoxProps } from './components/SearchBox';
export { SearchResults, type SearchResultsProps } from './components/SearchResults';
export { Shelf } from './components/Shelf';
export { ShopFront } from './components/ShopFront';
export { ShopSearch } from './components/ShopSearch';
export { TocList } from './components/TocList';
export { catalogKeys } from './api';
export { parsePrice, DEFAULT_PAGE_SIZE } from './format';
export * from './hooks';
export { CatalogLinksProvider, desktopLinks, h5Links, useCatalogLinks } from './links';
export { isSearching, readShopQuery } from './shop-query';
export { useViewer } from './session';
export type * from './types';
