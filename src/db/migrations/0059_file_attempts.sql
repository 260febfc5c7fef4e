-- How many times a file was claimed for processing: a file whose processing always stops before
-- its outcome is recorded (it kills its process, say) is marked failed past a few, not taken for ever.
alter table files add column attempts integer not null default 0;
