ALTER TABLE `uploads_table` ADD `completingAt` text;--> statement-breakpoint
ALTER TABLE `users_table` ADD `grantVersion` integer DEFAULT 0 NOT NULL;