/** The brand: the favicon's check mark and the name. */
export function Logo() {
  return (
    <span className="flex items-center gap-2 font-semibold text-slate-900">
      <svg viewBox="0 0 32 32" aria-hidden="true" className="size-7">
        <rect width="32" height="32" rx="7" className="fill-brand" />
        <path
          d="m9 16.5 4.5 4.5L23 11.5"
          fill="none"
          stroke="#fff"
          strokeWidth="3.2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      Workers API
    </span>
  );
}
