// The server serves each catalog i18n/<code>.json also as i18n/<code>.js (`export default {...}`,
// see src/bidak/server/assets.py); no such file is on disk, so its type is declared here.
declare const catalog: Record<string, string>;
export default catalog;
