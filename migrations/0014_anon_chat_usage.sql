CREATE TABLE `anon_usage_table` (
	`day` text PRIMARY KEY NOT NULL,
	`outputTokens` integer NOT NULL
);
