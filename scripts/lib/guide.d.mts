export const GUIDE_PAGES: string[];
