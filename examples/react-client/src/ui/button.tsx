import type { ComponentProps } from "react";

const VARIANTS = {
  primary: "border-transparent bg-orange-700 text-white hover:bg-orange-800 disabled:bg-orange-700/60",
  secondary: "border-slate-300 bg-white text-slate-900 hover:bg-slate-100 disabled:text-slate-500",
  ghost: "border-transparent bg-transparent text-slate-700 hover:bg-slate-100 disabled:text-slate-500",
  danger: "border-transparent bg-red-700 text-white hover:bg-red-800 disabled:bg-red-700/60",
} as const;

const SIZES = {
  sm: "min-h-8 px-2.5 text-sm",
  md: "min-h-10 px-4 text-sm",
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

/** The classes of a button, for the rare link that must look like one. */
export function buttonClass(variant: ButtonVariant = "secondary", size: keyof typeof SIZES = "md"): string {
  return `inline-flex items-center justify-center gap-1.5 rounded-lg border font-medium disabled:cursor-not-allowed ${VARIANTS[variant]} ${SIZES[size]}`;
}

/** A button; `type="button"` unless it submits a form. */
export function Button({
  variant = "secondary",
  size = "md",
  className = "",
  type = "button",
  ...props
}: ComponentProps<"button"> & { variant?: ButtonVariant; size?: keyof typeof SIZES }) {
  return <button type={type} className={`${buttonClass(variant, size)} ${className}`} {...props} />;
}
