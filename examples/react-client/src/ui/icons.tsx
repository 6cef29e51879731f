import type { SVGProps } from "react";

// A few stroke icons (24 px grid, after the Lucide set's shapes), so no icon package ships for eight glyphs.
function Icon({ paths, ...props }: Omit<SVGProps<SVGSVGElement>, "d"> & { paths: string[] }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className="size-4 shrink-0"
      {...props}
    >
      {paths.map((path) => (
        <path key={path} d={path} />
      ))}
    </svg>
  );
}

type P = SVGProps<SVGSVGElement>;
export const PaperclipIcon = (p: P) => (
  <Icon
    paths={[
      "m21.4 11.1-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5",
    ]}
    {...p}
  />
);
export const NoteIcon = (p: P) => <Icon paths={["M4 6h16", "M4 12h16", "M4 18h10"]} {...p} />;
export const MoreIcon = (p: P) => (
  <Icon paths={["M12 12h.01", "M19 12h.01", "M5 12h.01"]} strokeWidth={3} {...p} />
);
export const CloseIcon = (p: P) => <Icon paths={["M18 6 6 18", "m6 6 12 12"]} {...p} />;
export const CopyIcon = (p: P) => <Icon paths={["M8 8h12v12H8z", "M4 16V4h12"]} {...p} />;
export const LockIcon = (p: P) => <Icon paths={["M5 11h14v10H5z", "M8 11V7a4 4 0 0 1 8 0v4"]} {...p} />;
export const ChevronIcon = (p: P) => <Icon paths={["m6 9 6 6 6-6"]} {...p} />;
export const SendIcon = (p: P) => <Icon paths={["M22 2 11 13", "M22 2 15 22l-4-9-9-4z"]} {...p} />;
