CREATE TABLE `deleted_files_table` (
	`id` integer PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`userId` integer NOT NULL,
	`originalName` text NOT NULL,
	`size` integer NOT NULL,
	`contentType` text NOT NULL,
	`etag` text NOT NULL,
	`visibility` text NOT NULL,
	`links` text NOT NULL,
	`createdAt` text NOT NULL,
	`deletedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deleted_files_key_unique` ON `deleted_files_table` (`key`);--> statement-breakpoint
CREATE INDEX `deleted_files_user_idx` ON `deleted_files_table` (`userId`);--> statement-breakpoint
CREATE INDEX `deleted_files_deleted_at_idx` ON `deleted_files_table` (`deletedAt`);--> statement-breakpoint
CREATE TABLE `deleted_todos_table` (
	`id` integer PRIMARY KEY NOT NULL,
	`userId` integer NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`completed` integer NOT NULL,
	`scheduleAt` text,
	`completedAt` text,
	`version` integer NOT NULL,
	`fileKeys` text NOT NULL,
	`createdAt` text NOT NULL,
	`updatedAt` text NOT NULL,
	`deletedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deleted_todos_deleted_at_idx` ON `deleted_todos_table` (`deletedAt`);