// Production bundles go to dist/ and are served by the gateway under /platform
// (SPA fallback to index.html), so every asset URL starts with /platform/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import CopyPlugin from 'copy-webpack-plugin';

const root = path.dirname(fileURLToPath(import.meta.url));
const PUBLIC_PATH = '/platform/';
const API_TARGET = process.env.QUIRE_API_TARGET || 'http://127.0.0.1:8080';

export default (_env, argv) => {
  const production = argv.mode === 'production';
  return {
    entry: path.join(root, 'src/main.tsx'),
    output: {
      path: path.join(root, 'dist'),
      publicPath: PUBLIC_PATH,
      filename: production ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      alias: { '@': path.join(root, 'src') },
    },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          loader: 'esbuild-loader',
          options: { target: 'es2020', jsx: 'automatic' },
        },
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
        { test: /\.(svg|png|jpe?g|webp|woff2?)$/, type: 'asset' },
      ],
    },
    plugins: [
      new HtmlWebpackPlugin({
        template: path.join(root, 'public/index.html'),
        favicon: path.join(root, 'public/favicon.svg'),
      }),
      // The gateway's /api/docs page loads Swagger UI from here, never from another host.
      new CopyPlugin({
        patterns: [
          {
            from: path.join(root, 'node_modules/swagger-ui-dist'),
            to: 'vendor/swagger-ui',
            globOptions: { ignore: ['**/*.map', '**/package.json', '**/README.md', '**/index.html', '**/*-es-*'] },
          },
          { from: path.join(root, 'public/docs-init.js'), to: 'vendor/swagger-ui/docs-init.js' },
        ],
      }),
      new MiniCssExtractPlugin({
        filename: production ? 'assets/[name].[contenthash:8].css' : 'assets/[name].css',
      }),
    ],
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    performance: { hints: false },
    optimization: {
      splitChunks: {
        cacheGroups: {
          vendor: { test: /[\\/]node_modules[\\/]/, name: 'vendor', chunks: 'initial' },
        },
      },
    },
    devServer: {
      port: 5173,
      historyApiFallback: { index: `${PUBLIC_PATH}index.html` },
      proxy: [{ context: ['/api'], target: API_TARGET, changeOrigin: false }],
      open: false,
      static: false,
      devMiddleware: { publicPath: PUBLIC_PATH },
    },
  };
};
