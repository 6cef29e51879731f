CREATE TABLE `upload_parts_table` (
	`uploadId` text NOT NULL,
	`partNumber` integer NOT NULL,
	`etag` text NOT NULL,
	`size` integer NOT NULL,
	PRIMARY KEY(`uploadId`, `partNumber`),
	FOREIGN KEY (`uploadId`) REFERENCES `uploads_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `uploads_table` (
	`id` text PRIMARY KEY NOT NULL,
	`userId` integer NOT NULL,
	`key` text NOT NULL,
	`r2UploadId` text NOT NULL,
	`contentType` text NOT NULL,
	`partSize` integer NOT NULL,
	`size` integer,
	`expiresAt` text NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `uploads_user_idx` ON `uploads_table` (`userId`);--> statement-breakpoint
CREATE INDEX `uploads_expires_at_idx` ON `uploads_table` (`expiresAt`);