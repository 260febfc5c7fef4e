-- The fixed-field types of order records (migration 0051) in the list of fixed-field types
-- (0035's view, the same rows with these before them): src/shared/fixed-fields.ts gives every
-- record type's, and reports that label an order's fixed fields join this view.
create or replace view sierra_view.fixfld_type_myuser as
select v.code::varchar(3) as code, v.code::integer - 1 as display_order, v.name::varchar(255) as name
from (values
    ('1', 'ACQ TYPE'), ('2', 'LOCATION'), ('3', 'CDATE'), ('4', 'CLAIM'), ('5', 'COPIES'), ('13', 'ODATE'),
    ('17', 'RDATE'), ('19', 'BLOC'), ('20', 'STATUS'),
    ('24', 'LANG'), ('25', 'SKIP'), ('26', 'LOCATION'), ('27', 'COPIES'), ('28', 'CAT DATE'), ('29', 'BIB LVL'),
    ('30', 'MAT TYPE'), ('31', 'BCODE3'), ('35', 'LABEL TYPE'), ('36', 'SCODE1'), ('37', 'SCODE2'), ('38', 'COPIES'),
    ('39', 'CLAIMON'), ('40', 'LOCATION'), ('41', 'RECV LOC'), ('42', 'VENDOR'), ('43', 'EXP DATE'), ('44', 'PCODE1'),
    ('45', 'PCODE2'), ('46', 'PCODE3'), ('47', 'P TYPE'), ('48', 'TOT CHKOUT'), ('49', 'TOT RENWAL'),
    ('50', 'CUR CHKOUT'), ('51', 'BIRTH DATE'), ('53', 'HOME LIBR'), ('54', 'PMESSAGE'), ('56', 'MBLOCK'),
    ('57', 'BIB HOLD'), ('58', 'COPY #'), ('59', 'ICODE1'), ('60', 'ICODE2'), ('61', 'I TYPE'), ('62', 'PRICE'),
    ('63', 'OUT DATE'), ('64', 'OUT LOC'), ('65', 'DUE DATE'), ('68', 'LCHKIN'), ('70', 'IN LOC'), ('71', '# RENEWALS'),
    ('76', 'TOT CHKOUT'), ('77', 'TOT RENEW'), ('78', 'LOUTDATE'), ('79', 'LOCATION'), ('80', 'REC TYPE'),
    ('81', 'RECORD #'), ('83', 'CREATED'), ('84', 'UPDATED'), ('85', 'REVISIONS'), ('86', 'AGENCY'), ('88', 'STATUS'),
    ('89', 'COUNTRY'), ('93', 'INTL USE'), ('94', 'COPY USE'), ('95', 'CL RTRND'), ('96', 'MONEY OWED'),
    ('97', 'IMESSAGE'), ('98', 'PDATE'), ('102', 'CUR ITEMA'), ('103', 'CUR ITEMB'), ('107', 'MARC TYPE'),
    ('108', 'OPACMSG'), ('109', 'YTDCIRC'), ('110', 'LYRCIRC'), ('118', 'SCODE3'), ('119', 'SCODE4'),
    ('120', 'UPDATE CNT'), ('121', 'PIECE CNT'), ('124', 'CUR ITEMC'), ('125', 'CUR ITEMD'), ('126', 'PCODE4'),
    ('137', 'ECHECKIN'), ('159', 'MEDIA TYPE'), ('163', 'CIRCACTIVE'), ('266', 'INHERIT LOC'), ('268', 'NOTICE PREF')
  ) v(code, name);
