export { Landing, MobileBanner } from './components/Landing';
