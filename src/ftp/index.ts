// The FTP door (README, "SFTP door and files"): plain FTP and FTPS for the SFTP door's accounts and
// folders, for vendors whose systems speak only FTP.
export { openFtpDoor, type FtpDoor } from './server.ts';
