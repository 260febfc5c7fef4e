-- The host key Carrel expects of a vendor's SFTP server, as OpenSSH prints its fingerprint
-- (`ssh-keygen -lf`: SHA256: and the unpadded base64 of the key's SHA-256). Set by the library, or
-- recorded on the first connection when unset (OpenSSH's StrictHostKeyChecking=accept-new); a
-- server offering another key is refused before anything is sent or fetched.
alter table vendor_edi add column host_key text check (host_key ~ '^SHA256:[A-Za-z0-9+/]{43}$');
