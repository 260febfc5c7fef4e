// XML as Carrel writes and reads it, for the doors that speak it (SOAP, XML answers on REST): one
// mapping from the JSON answers' schemas to XML elements and to XML Schema, so that an XML answer, its
// XSD and the JSON answer are all made from the same schema and cannot drift.
//
// The mapping: an object's member becomes an element of that name; an array member repeats its
// element once per entry (XSD maxOccurs="unbounded"); a map (an object keyed by anything, such as
// fixedFields keyed by number) becomes one <entry key="…"> per member; null is xsi:nil="true";
// booleans are true/false; a member whose schema allows several shapes takes the union of their members.
export { readXmlTree, XmlLimitError, type XmlElement, type XmlLimits, DEFAULT_XML_LIMITS } from './tree.ts';
export { writeXml, escapeXmlText, type WriteOptions } from './write.ts';
export { shapeOf, type SchemaRefs, type Shape } from './shape.ts';
export { valueFromXml, XmlValueError } from './value.ts';
export { xsdTypes, XSD_NS, XSI_NS, type XsdElement } from './xsd.ts';
