DROP TABLE upload_progress;
DROP TABLE uploads;
DROP TABLE band_keys;
DROP TABLE chapters;
DROP TABLE manuscript_files;
DROP TABLE manuscripts;
