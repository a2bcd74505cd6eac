import 'uplot/dist/uPlot.min.css';
import './console.css';
import { consoleView } from './console-view';
import { marketView } from './market-view';
import { statusView } from './status-view';

/** The page shell names its view; the console's market pages are `/console/market/{instrument}`. */
const root = document.getElementById('app')!;
const market = /^\/console\/market\/([^/]+)\/?$/.exec(location.pathname);
if (document.body.dataset.view === 'status') statusView(root);
else if (market) marketView(root, decodeURIComponent(market[1]));
else consoleView(root);
